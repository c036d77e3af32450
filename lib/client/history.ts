// History's one list: tree researches, Deep Research conversations and quick answers, each kind from
// its own list API (searched and filtered there) and merged newest first.
import type { ResearchSummary } from "@/lib/types";
import type { AnswerSummary } from "./api";
import type { ConversationSummary } from "./deep-research-api";

export type HistoryKind = "tree" | "deep" | "answer";

export interface HistoryRow {
  kind: HistoryKind;
  id: string;
  title: string;
  status: string;
  createdAt: string;
  href: string;
  /** A short detail: depth × breadth, the mode and level. */
  detail: string | null;
}

export const KIND_LABELS: Record<HistoryKind, string> = { tree: "Tree research", deep: "Deep research", answer: "Quick answer" };

const MODES: Record<string, string> = { "semi-autonomous": "Semi-autonomous", "fully-autonomous": "Fully autonomous", steering: "Steering" };

export function researchRow(r: ResearchSummary): HistoryRow {
  return { kind: "tree", id: r.research_id, title: r.initial_prompt, status: r.status, createdAt: r.created_at, href: `/research/${r.research_id}`, detail: r.depth && r.breadth ? `${r.depth} × ${r.breadth}` : null };
}

export function conversationRow(c: ConversationSummary): HistoryRow {
  const mode = MODES[c.researchMode] ?? c.researchMode;
  return { kind: "deep", id: c.id, title: c.conversationTitle ?? c.objective, status: c.status, createdAt: c.createdAt, href: `/deep-research/${c.id}`, detail: c.currentLevel > 0 ? `${mode} · level ${c.currentLevel}` : mode };
}

export function answerRow(a: AnswerSummary): HistoryRow {
  // An answer waiting for its turn shows as running.
  return { kind: "answer", id: a.requestId, title: a.question, status: a.status === "queued" ? "running" : a.status, createdAt: a.createdAt, href: `/answer?id=${encodeURIComponent(a.requestId)}`, detail: null };
}

/**
 * The rows of several newest-first lists merged newest first. A list with more pages may still hold
 * rows newer than another list's oldest loaded one, so only rows no older than the oldest loaded row
 * of every list with more pages are shown; "Load more" fetches on and the cut moves down.
 */
export function mergeHistory(sources: { rows: HistoryRow[]; hasMore: boolean }[]): HistoryRow[] {
  const time = (r: HistoryRow) => Date.parse(r.createdAt);
  let cut = -Infinity;
  for (const s of sources) if (s.hasMore && s.rows.length) cut = Math.max(cut, time(s.rows[s.rows.length - 1]));
  return sources
    .flatMap((s) => s.rows)
    .filter((r) => time(r) >= cut)
    .sort((a, b) => time(b) - time(a) || b.id.localeCompare(a.id));
}
