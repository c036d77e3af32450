// The browser's model of one Deep Research conversation, folded from its stream: the snapshot
// replaces everything; state and run replace theirs; messages, tasks and discoveries are upserted by
// id (a later part with the same id wins); a phase part records what runs now and since when. Every
// part is numbered: one the snapshot already holds is dropped, and so is one older than the part its
// row (the state, the run, a message, task or discovery, the phase) was last set from, so that a part
// that comes late never puts back an older state over a newer one. A reply being written is a draft,
// appended from its transient pieces until the saved reply (or the run's end) replaces it.
// Shapes mirror lib/deep-research/views.ts after JSON (dates are ISO strings).
import type { PausedState } from "../types";

export type DrMode = "semi-autonomous" | "fully-autonomous" | "steering";

export interface DrHypothesis { hypothesis?: string; rationale?: string; evidenceTaskIds?: string[]; level?: number }
export interface DrStep { type?: string; objective?: string; datasetFilenames?: string[] }

export interface DrState {
  id: string;
  objective: string;
  currentObjective: string | null;
  evolvingObjective: string | null;
  conversationTitle: string | null;
  keyInsights: string[];
  methodology: string | null;
  currentHypothesis: DrHypothesis | null;
  suggestedNextSteps: DrStep[];
  currentLevel: number;
  researchMode: DrMode;
  uploadedDatasets: unknown[];
  createdAt: string;
  updatedAt: string;
}

export interface DrMessage {
  id: string;
  role: "user" | "assistant" | string;
  content: string;
  status: string;
  iteration: number;
  level: number;
  phase: string | null;
  /** When a start's message reached its phase (ISO); null on replies and on messages from before it was recorded. */
  phaseStartedAt?: string | null;
  researchMode: string | null;
  replyToId: string | null;
  suggestedNextSteps: DrStep[];
  error: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface DrTask {
  id: string;
  level: number;
  type: "LITERATURE" | "ANALYSIS" | string;
  objective: string;
  datasetFilenames: string[];
  status: string;
  output: string | null;
  artifacts: unknown;
  error: string | null;
  childResearchId: string | null;
  startedAt: string | null;
  endedAt: string | null;
}

export type DrCell = string | number | boolean | null;
/** A stored query of an analysis task: its SQL, its result (first rows kept), and a chart over it. */
export interface DrQuery { queryId: string; sql: string; columns: string[]; rows: DrCell[][]; rowCount: number; truncated: boolean; durationMs: number; chart: DrChartSpec | null }
/** The Vega-Lite subset the analysis agent's charts use (lib/deep-research/agents/analysis-chart.ts). */
export interface DrChartSpec { title?: string; mark: "bar" | "line" | "point" | string; data: { values: Record<string, DrCell>[] }; encoding: { x: { field: string; type: string }; y: { field: string; type: string }; color?: { field: string; type: string } } }
export interface DrEvidence { taskId: string; itemId: string; quote: string | null; url: string | null; researchId: string | null; query?: DrQuery | null }
/** An uploaded dataset in the world state: its profile once loaded, or the error that kept it out. */
export interface DrDataset {
  filename: string;
  size: number;
  status?: "loaded" | "failed";
  table?: string;
  rowCount?: number;
  columns?: { name: string; type: string; nulls: number }[];
  previewRows?: { columns: string[]; rows: DrCell[][] };
  description?: string | null;
  error?: string;
  /** How a text file was read when not UTF-8 with its name's delimiter ("Latin-1 (Windows-1252) text, semicolon-separated"). */
  readAs?: string | null;
}
/** An analysis task's artifacts: every query it ran with its result or error, and its chart. */
export interface DrAnalysisArtifacts {
  kind: "analysis";
  queries: { id: string; sql: string; ok: boolean; error: string | null; columns: string[]; rows: DrCell[][]; rowCount: number; truncated: boolean; durationMs: number }[];
  chart: { queryId: string; spec: DrChartSpec } | null;
}

export function analysisArtifactsOf(t: { artifacts: unknown }): DrAnalysisArtifacts | null {
  const a = t.artifacts as Partial<DrAnalysisArtifacts> | null;
  return a && typeof a === "object" && a.kind === "analysis" && Array.isArray(a.queries) ? (a as DrAnalysisArtifacts) : null;
}

export function datasetsOf(uploaded: unknown[]): DrDataset[] {
  return uploaded.filter((d): d is DrDataset => typeof (d as DrDataset)?.filename === "string" && typeof (d as DrDataset).size === "number");
}
export interface DrHistoryEntry { at?: string; level?: number; action?: string; reason?: string; previousClaim?: string }

export interface DrDiscovery {
  id: string;
  claim: string;
  evidence: string;
  novelty: string;
  confidence: "high" | "medium" | "low" | string;
  status: "active" | "revised" | "retired" | string;
  level: number;
  supportingTaskIds: string[];
  evidenceItems: DrEvidence[];
  /** Whether any of its evidence names a stored source or query (false: kept, but marked as without linked evidence). */
  linkedEvidence?: boolean;
  history: DrHistoryEntry[];
}

export interface DrRun {
  isRunning: boolean;
  rootMessageId: string | null;
  mode: string | null;
  startedAt: string | null;
  lastResult: string | null;
  lastError: string | null;
  endedAt: string | null;
  /** While running: the start's phase and since when (ISO). */
  phase?: string | null;
  phaseStartedAt?: string | null;
  /** While running: set when the loop waits for its LLM provider (an outage). */
  paused?: PausedState | null;
}

export interface DrSnapshot {
  conversationId: string;
  /** The reply being written when the snapshot was taken (in any process: a worker's is shared through Redis). */
  draft?: DrDraft | null;
  state: DrState;
  messages: DrMessage[];
  plan: DrTask[];
  discoveries: DrDiscovery[];
  deepResearchRun: DrRun;
}

/** The phase running now; `at`: when it started (the server's phaseStartedAt, else the part's time). */
export interface DrPhase { messageId: string; iteration: number; level: number; phase: string; at: number }

/** The reply being written: its text so far, for the start message it answers. */
export interface DrDraft {
  replyToId: string;
  text: string;
  /** Why the reply is being written again (it cited nothing, another language), when it is. */
  note?: string;
}

export interface LiveConversation extends DrSnapshot {
  /** The reply being written, while it streams (null otherwise). */
  draft: DrDraft | null;
  /** The phase running now, with the time its part was written (null until one arrives). */
  phase: DrPhase | null;
  /** The number of the snapshot this state was built from. */
  snapshotSeq: number;
  /** The number of the part each row was last set from: `state`, `run`, `phase`, `m:<id>`, `t:<id>`, `d:<id>`. */
  rowSeq: Readonly<Record<string, number>>;
}

type Meta = { seq: number; at: number };
export type DrChunk =
  | { type: "data-snapshot"; data: { seq: number; conversation: DrSnapshot } }
  | { type: "data-state"; data: DrState & Meta }
  | { type: "data-run"; data: DrRun & Meta }
  | { type: "data-message"; data: DrMessage & Meta }
  | { type: "data-task"; data: DrTask & Meta }
  | { type: "data-discovery"; data: DrDiscovery & Meta }
  | { type: "data-phase"; data: Omit<DrPhase, "at"> & { phaseStartedAt?: string | null } & Meta }
  | { type: "data-reply-delta"; data: { replyToId: string; offset: number; delta: string; note?: string } & Meta };

function upsert<T extends { id: string }>(list: T[], item: T): T[] {
  const i = list.findIndex((x) => x.id === item.id);
  if (i < 0) return [...list, item];
  const next = list.slice();
  next[i] = item;
  return next;
}

function strip<T extends Meta>(data: T): Omit<T, "seq" | "at"> {
  const { seq: _seq, at: _at, ...rest } = data;
  return rest;
}

export function applyDrChunk(prev: LiveConversation | null, chunk: DrChunk): LiveConversation | null {
  if (chunk.type === "data-snapshot") {
    // Keep the phase timer across a reconnect to the same conversation while it still runs.
    const c = chunk.data.conversation;
    const keep = prev && prev.conversationId === c.conversationId && c.deepResearchRun.isRunning ? prev.phase : null;
    return { ...c, phase: keep, draft: c.deepResearchRun.isRunning ? (c.draft ?? null) : null, snapshotSeq: chunk.data.seq, rowSeq: {} };
  }
  // Parts before a snapshot cannot happen on one connection; parts it holds already are dropped.
  if (!prev || chunk.data.seq <= prev.snapshotSeq) return prev;
  const seq = chunk.data.seq;
  const key = rowKey(chunk);
  if (key && seq <= (prev.rowSeq[key] ?? prev.snapshotSeq)) return prev;
  const rowSeq = key ? { ...prev.rowSeq, [key]: seq } : prev.rowSeq;
  switch (chunk.type) {
    case "data-state":
      return { ...prev, rowSeq, state: strip(chunk.data) as DrState };
    case "data-run": {
      const run = strip(chunk.data) as DrRun;
      // A run that has ended has no phase: a phase part older than this one does not bring it back.
      return run.isRunning ? { ...prev, rowSeq, deepResearchRun: run } : { ...prev, rowSeq: { ...rowSeq, phase: seq }, deepResearchRun: run, phase: null, draft: null };
    }
    case "data-message": {
      const message = strip(chunk.data) as DrMessage;
      // The saved reply takes its draft's place.
      const done = prev.draft && message.role === "assistant" && message.replyToId === prev.draft.replyToId;
      return { ...prev, rowSeq, messages: upsert(prev.messages, message), ...(done ? { draft: null } : {}) };
    }
    case "data-reply-delta": {
      const { replyToId, offset, delta, note } = chunk.data;
      // A run ended has no draft; a piece at offset 0 starts one (again: a step tried again starts over).
      if (!prev.deepResearchRun.isRunning) return prev;
      const text = offset === 0 ? "" : prev.draft?.replyToId === replyToId ? prev.draft.text : null;
      // A piece after a gap (joined mid-reply, the snapshot without the draft) is not shown: the saved
      // reply comes. One the snapshot's draft already holds (taken while it was sent) adds its rest only.
      if (text === null || offset > text.length) return prev;
      const rest = delta.slice(text.length - offset);
      // An attempt's note comes with its first piece; later pieces keep it.
      const kept = offset === 0 ? note : prev.draft?.replyToId === replyToId ? prev.draft.note : undefined;
      return rest ? { ...prev, draft: { replyToId, text: text + rest, ...(kept ? { note: kept } : {}) } } : prev;
    }
    case "data-task":
      return { ...prev, rowSeq, plan: upsert(prev.plan, strip(chunk.data) as DrTask) };
    case "data-discovery":
      return { ...prev, rowSeq, discoveries: upsert(prev.discoveries, strip(chunk.data) as DrDiscovery) };
    case "data-phase": {
      const { seq: _seq, phaseStartedAt, at, ...p } = chunk.data;
      const started = phaseStartedAt ? Date.parse(phaseStartedAt) : NaN;
      return { ...prev, rowSeq, phase: { ...p, at: Number.isFinite(started) ? started : at } };
    }
    default:
      return prev;
  }
}

/** The row a part sets, whose newest number it is kept under. */
function rowKey(chunk: Exclude<DrChunk, { type: "data-snapshot" }>): string | undefined {
  switch (chunk.type) {
    case "data-state":
      return "state";
    case "data-run":
      return "run";
    case "data-phase":
      return "phase";
    case "data-message":
      return `m:${chunk.data.id}`;
    case "data-task":
      return `t:${chunk.data.id}`;
    case "data-discovery":
      return `d:${chunk.data.id}`;
    default:
      return undefined;
  }
}

/**
 * When the phase running now started (ms), right after a reload too: the live phase part's time,
 * else the start's recorded phaseStartedAt, else when the start was sent.
 */
export function phaseSince(c: LiveConversation, start: DrMessage | null): number | null {
  if (!start) return null;
  if (c.phase && c.phase.messageId === start.id) return c.phase.at;
  const recorded = start.phaseStartedAt ?? (c.deepResearchRun.rootMessageId === start.id ? c.deepResearchRun.phaseStartedAt : null);
  const t = recorded ? Date.parse(recorded) : NaN;
  return Number.isFinite(t) ? t : Date.parse(start.createdAt);
}

/** The start message running now (its phase and iteration), if any. */
export function runningStart(c: LiveConversation): DrMessage | null {
  if (!c.deepResearchRun.isRunning) return null;
  const root = c.deepResearchRun.rootMessageId;
  return c.messages.find((m) => m.id === root) ?? [...c.messages].reverse().find((m) => m.status === "processing") ?? null;
}

export const PHASE_NAMES: Record<string, string> = {
  plan: "Planning",
  execute: "Literature & analysis",
  hypothesis: "Hypothesis",
  reflect: "Reflection & discovery",
  next: "Next steps",
  continue: "Deciding",
  reply: "Replying",
  verify: "Checking citations",
  done: "Done",
};

/** Tasks grouped by level, newest level first. */
export function tasksByLevel(plan: DrTask[]): { level: number; tasks: DrTask[] }[] {
  const map = new Map<number, DrTask[]>();
  for (const t of plan) map.set(t.level, [...(map.get(t.level) ?? []), t]);
  return [...map.entries()].sort((a, b) => b[0] - a[0]).map(([level, tasks]) => ({ level, tasks: tasks.sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true })) }));
}

/** Standing discoveries first (high confidence first), then revised, then retired. */
export function orderDiscoveries(list: DrDiscovery[]): DrDiscovery[] {
  const statusRank = (s: string) => (s === "active" ? 0 : s === "revised" ? 1 : 2);
  const confRank = (c: string) => (c === "high" ? 0 : c === "medium" ? 1 : 2);
  return [...list].sort((a, b) => statusRank(a.status) - statusRank(b.status) || confRank(a.confidence) - confRank(b.confidence) || b.level - a.level);
}

/** The iteration cap of a mode (semi-autonomous reads the server's MAX_AUTO_ITERATIONS). */
export function iterationCap(mode: string, semiCap: number): number {
  return mode === "fully-autonomous" ? 20 : mode === "steering" ? 1 : semiCap;
}
