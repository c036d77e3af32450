// The read-only view of a Deep Research conversation behind a share link: its title, objectives,
// timeline, plan, hypothesis and discoveries with their quotes — nothing else of the owner's. The
// child researches of literature tasks, uploaded datasets, errors, token counts and internal ids
// (snippet and research ids, the run) are left out; task ids (lit-1-2) only link the plan to the
// hypothesis and the evidence.
import { conversationSnapshot, type ConversationSnapshot } from "./snapshot";
import { verificationOfConversation } from "../db/verifications";
import { conversationStatus } from "./views";
import { toVerificationView, type VerificationView } from "../verification/view";
import { parseAnalysisSourceUrl } from "../exports/query-links";

type Iso = string;
const iso = (d: Date | string | null | undefined): Iso | null => (d == null ? null : new Date(d).toISOString());

export interface SharedConversation {
  title: string;
  objective: string;
  evolvingObjective: string | null;
  researchMode: string;
  status: "running" | "completed" | "failed";
  currentLevel: number;
  keyInsights: string[];
  hypothesis: { hypothesis?: string; rationale?: string; evidenceTaskIds?: string[]; level?: number } | null;
  createdAt: Iso;
  messages: { role: string; content: string; iteration: number; level: number; createdAt: Iso }[];
  plan: { id: string; level: number; type: string; objective: string; status: string; output: string | null; startedAt: Iso | null; endedAt: Iso | null }[];
  discoveries: {
    id: string;
    claim: string;
    evidence: string;
    novelty: string;
    confidence: string;
    status: string;
    level: number;
    supportingTaskIds: string[];
    evidenceItems: { taskId: string; quote: string | null; url: string | null }[];
    /** False when the discovery was kept although its evidence named no stored snippet or query. */
    linkedEvidence: boolean;
    history: { level?: number; action?: string; reason?: string; previousClaim?: string }[];
  }[];
  /** The citation check of the write-up (the last reply), when it was verified. */
  writeUpVerification: VerificationView | null;
}

export function toSharedConversation(c: ConversationSnapshot): SharedConversation {
  const h = c.state.currentHypothesis as SharedConversation["hypothesis"];
  return {
    title: c.state.conversationTitle ?? c.state.objective,
    objective: c.state.objective,
    evolvingObjective: c.state.evolvingObjective ?? c.state.currentObjective,
    researchMode: c.state.researchMode,
    status: conversationStatus({ active: c.deepResearchRun.isRunning, lastResult: c.deepResearchRun.lastResult }),
    currentLevel: c.state.currentLevel,
    keyInsights: c.state.keyInsights,
    hypothesis: h && typeof h === "object" ? { hypothesis: h.hypothesis, rationale: h.rationale, evidenceTaskIds: h.evidenceTaskIds, level: h.level } : null,
    createdAt: iso(c.state.createdAt)!,
    messages: c.messages.map((m) => ({ role: m.role, content: m.content, iteration: m.iteration, level: m.level, createdAt: iso(m.createdAt)! })),
    plan: c.plan.map((t) => ({
      id: t.id, level: t.level, type: t.type, objective: t.objective, status: t.status,
      // An analysis task's output is part of the findings; a literature task's tree stays the owner's.
      output: t.type === "LITERATURE" ? null : t.output,
      startedAt: iso(t.startedAt), endedAt: iso(t.endedAt),
    })),
    discoveries: c.discoveries.map((d) => ({
      id: d.id, claim: d.claim, evidence: d.evidence, novelty: d.novelty, confidence: d.confidence, status: d.status, level: d.level,
      supportingTaskIds: d.supportingTaskIds,
      evidenceItems: d.evidenceItems.map((e) => ({ taskId: e.taskId, quote: e.quote, url: e.url })),
      linkedEvidence: d.linkedEvidence,
      history: (d.history as SharedConversation["discoveries"][number]["history"]).map((x) => ({ level: x?.level, action: x?.action, reason: x?.reason, previousClaim: x?.previousClaim })),
    })),
    writeUpVerification: null,
  };
}

/** The shared view of a conversation, loaded by id without an owner scope (the share link authorises it). */
export async function loadSharedConversation(id: string): Promise<SharedConversation | null> {
  const snapshot = await conversationSnapshot({ id });
  return snapshot ? withWriteUpVerification(toSharedConversation(snapshot), id, snapshot) : null;
}

/** The shared view with the verification of its write-up (the last reply, when that reply was verified). */
export async function withWriteUpVerification(c: SharedConversation, conversationId: string, snapshot: { messages: { id: string; role: string }[] }): Promise<SharedConversation> {
  const last = [...snapshot.messages].reverse().find((m) => m.role === "assistant");
  const row = last ? await verificationOfConversation({ conversationId }) : null;
  return { ...c, writeUpVerification: row && row.messageId === last?.id ? withoutQueryQuotes(toVerificationView(row)) : null };
}

/** A share link shows no dataset's rows: a verdict's quote from an analysis query's result is left out (its verdict stays). */
export function withoutQueryQuotes(view: VerificationView): VerificationView {
  const pass = <P extends Pick<VerificationView, "claims">>(p: P): P => ({ ...p, claims: p.claims.map((c) => (c.quote_url && parseAnalysisSourceUrl(c.quote_url) ? { ...c, quote: null } : c)) });
  return { ...pass(view), as_written: pass(view.as_written) };
}
