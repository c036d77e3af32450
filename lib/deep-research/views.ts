// The public shapes of Deep Research objects, mapped from the rows in one place: the world state,
// messages, tasks, discoveries (with evidence resolved to stored snippets) and the run guard.
import type { QueryEvidence } from "./analysis-evidence";
import type { Conversation, ConversationMessage } from "../db/conversations";
import type { DiscoveryWithEvidence } from "../db/discoveries";
import type { ResearchTask } from "../db/research-tasks";
import type { Run } from "../db/types";
import { datasetEntries } from "../db/datasets";
import { parseJson } from "../db/json";
import { pausedOf } from "../db/runs";

export const PHASE_LABELS: Record<string, string> = {
  plan: "Planning the level's tasks",
  execute: "Running the tasks",
  hypothesis: "Forming a hypothesis",
  reflect: "Reflecting and recording discoveries",
  next: "Proposing next steps",
  continue: "Deciding whether to continue",
  reply: "Writing the reply",
  verify: "Checking the write-up's citations",
  done: "Done",
};

/** The run guard; with the start's message, the phase running now and since when. */
export function runGuardView(c: Conversation, run: Run | null, root?: ConversationMessage | null) {
  // The conversation's flag is the guard: set by a start, cleared when its loop ends (the run row ends just after).
  const isRunning = c.active;
  const current = isRunning && root && root.id === c.rootMessageId ? root : null;
  return {
    isRunning,
    rootMessageId: c.rootMessageId,
    stateId: c.id,
    mode: run?.mode ?? c.researchMode,
    jobId: null,
    runId: run?.id ?? null,
    status: run?.status ?? null,
    attempt: run?.attempt ?? 0,
    startedAt: run?.startedAt ?? null,
    lastHeartbeatAt: run?.heartbeatAt ?? null,
    expiresAt: run?.leaseExpiresAt ?? null,
    lastResult: c.lastResult,
    lastError: c.lastError,
    endedAt: c.runEndedAt,
    phase: current?.phase ?? null,
    phaseStartedAt: current?.phaseStartedAt ?? null,
    /** Non-null while the loop waits for its LLM provider (an outage): {reason, since}. */
    paused: isRunning ? pausedOf(run) : null,
  };
}

/** The status lists show (History's filter): running while the loop is active, else how it ended. */
export function conversationStatus(c: Pick<Conversation, "active" | "lastResult">): "running" | "completed" | "failed" {
  if (c.active) return "running";
  return c.lastResult === "failed" ? "failed" : "completed";
}

/** The world state as a list shows it: without the datasets' metadata (their previews are a conversation's, not a list's). */
export function listView(c: Omit<Conversation, "uploadedDatasets">) {
  return {
    id: c.id,
    objective: c.objective,
    currentObjective: c.currentObjective,
    evolvingObjective: c.evolvingObjective,
    conversationTitle: c.conversationTitle,
    keyInsights: parseJson<string[]>(c.keyInsights, []),
    methodology: c.methodology,
    currentHypothesis: parseJson<unknown>(c.currentHypothesis, null),
    suggestedNextSteps: parseJson<unknown[]>(c.suggestedNextSteps, []),
    currentLevel: c.currentLevel,
    researchMode: c.researchMode,
    clarificationContext: parseJson<unknown>(c.clarificationContext, null),
    usage: { promptTokens: c.promptTokens, completionTokens: c.completionTokens, llmCalls: c.llmCalls, llmCallsUnsettled: c.llmCallsUnsettled },
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/**
 * The world state of one conversation, with the datasets uploaded to it (name, size, preview and,
 * once loaded, the profile and description, or the error). The stored name on disk stays inside.
 */
export function stateView(c: Conversation) {
  const datasets = datasetEntries(c.uploadedDatasets);
  return { ...listView(c), uploadedDatasets: datasets.map(({ storedName: _stored, ...shown }) => shown) };
}

export function messageView(m: ConversationMessage) {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    status: m.status,
    iteration: m.iteration,
    level: m.level,
    phase: m.phase,
    phaseStartedAt: m.phaseStartedAt,
    researchMode: m.researchMode,
    replyToId: m.replyToId,
    suggestedNextSteps: parseJson<unknown[]>(m.suggestedNextSteps, []),
    // A start's last continue decision {shouldContinue, confidence, reasoning, triggerReason}.
    continueDecision: parseJson<{ decision?: unknown }>(m.state, {}).decision ?? null,
    error: m.error,
    createdAt: m.createdAt,
    completedAt: m.completedAt,
  };
}

export function taskView(t: ResearchTask) {
  return {
    id: t.taskKey,
    level: t.level,
    type: t.type,
    objective: t.objective,
    datasetFilenames: parseJson<string[]>(t.datasetFilenames, []),
    status: t.status,
    output: t.output,
    artifacts: parseJson<unknown>(t.artifacts, []),
    error: t.error,
    childResearchId: t.childResearchId,
    startedAt: t.startedAt,
    endedAt: t.endedAt,
  };
}

export type Snippet = { id: string; content: string; url: string; researchId: string };

/**
 * A discovery with each evidence item resolved: a literature snippet to its quote and URL, a stored
 * query of an analysis task to its SQL, result and chart (`query`); `linkedEvidence` says whether any does.
 */
export function discoveryView(d: DiscoveryWithEvidence, snippets: Map<string, Snippet>, queryOf: (itemId: string) => QueryEvidence | null = () => null) {
  const evidenceItems = d.evidenceItems.map((e) => {
    const s = snippets.get(e.itemId);
    return { taskId: e.taskKey, itemId: e.itemId, quote: s?.content ?? null, url: s?.url ?? null, researchId: s?.researchId ?? null, query: s ? null : queryOf(e.itemId) };
  });
  return {
    id: d.key,
    claim: d.claim,
    evidence: d.evidence,
    novelty: d.novelty,
    confidence: d.confidence,
    status: d.status,
    level: d.level,
    supportingTaskIds: parseJson<string[]>(d.supportingTaskIds, []),
    evidenceItems,
    // False for a discovery kept although its evidence named no stored snippet or query (agents/discovery.ts).
    linkedEvidence: evidenceItems.some((e) => e.quote !== null || e.query !== null),
    history: parseJson<unknown[]>(d.history, []),
  };
}

/**
 * What GET /api/deep-research/status/:messageId answers for a start's message. `paused`: the
 * conversation's run waits for its LLM provider (an outage); the start's own run, or null.
 */
export function statusView(m: ConversationMessage, objective: string, paused: ReturnType<typeof pausedOf> = null) {
  if (m.status === "completed") {
    return { status: "completed" as const, messageId: m.id, conversationId: m.conversationId, result: { text: m.resultText ?? "", suggestedNextSteps: parseJson<unknown[]>(m.suggestedNextSteps, []) } };
  }
  if (m.status === "failed") return { status: "failed" as const, messageId: m.id, conversationId: m.conversationId, error: m.error ?? "The research failed" };
  const phase = m.phase ?? "plan";
  return {
    status: "processing" as const,
    messageId: m.id,
    conversationId: m.conversationId,
    progress: { iteration: m.iteration, level: m.level, phase, label: PHASE_LABELS[phase] ?? phase, phaseStartedAt: m.phaseStartedAt ?? m.createdAt, objective },
    paused,
  };
}
