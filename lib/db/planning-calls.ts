// Query functions for planning calls: one row per request to a planning route (follow-up questions,
// clarification questions and plans), counted by the per-user limit and carrying its LLM usage.
import { db } from "./client";

export type PlanningCallKind = "research-questions" | "clarification-questions" | "clarification-plan" | "clarification-feedback" | KnowledgeCallKind | ChatCallKind;
/**
 * A chat client's calls outside any run (lib/answer/chat-limits.ts): a plain call (quarry-chat, or a
 * chat UI's title or tags) and the classification of a chat request. Recorded against the user like
 * planning calls, limited by the chat limits, not the planning limit.
 */
export type ChatCallKind = "chat-task" | "chat-classify";
/**
 * Embeddings a user's own action spends outside any run (indexing an upload, a collection search):
 * recorded against the user like planning calls, but not counted by the planning limit (each kind
 * has its own limits: lib/runs/limits.ts).
 */
export type KnowledgeCallKind = "knowledge-index" | "knowledge-search";
const UNLIMITED: (KnowledgeCallKind | ChatCallKind)[] = ["knowledge-index", "knowledge-search", "chat-task", "chat-classify"];

export async function insertPlanningCall({ userId, kind, subjectId = null }: { userId: string; kind: PlanningCallKind; subjectId?: string | null }) {
  return db.planningCall.create({ data: { userId, kind, subjectId } });
}

/** The planning calls (`kinds` not given), or the calls of these kinds. */
const kindsWhere = (kinds?: PlanningCallKind[]) => ({ kind: kinds ? { in: kinds } : { notIn: UNLIMITED } });

/** Calls of the user not ended and started after `since` (older ones are counted as crashed). */
export async function countPlanningCallsInFlight({ userId, since, kinds }: { userId: string; since: Date; kinds?: PlanningCallKind[] }) {
  return db.planningCall.count({ where: { userId, endedAt: null, startedAt: { gte: since }, ...kindsWhere(kinds) } });
}

/** When the user's planning calls (or calls of `kinds`) since `since` started, oldest first, at most `limit`. */
export async function listPlanningCallStartTimes({ userId, since, limit, kinds }: { userId: string; since: Date; limit: number; kinds?: PlanningCallKind[] }): Promise<Date[]> {
  const rows = await db.planningCall.findMany({ where: { userId, startedAt: { gte: since }, ...kindsWhere(kinds) }, select: { startedAt: true }, orderBy: { startedAt: "asc" }, take: limit });
  return rows.map((r) => r.startedAt);
}

/** Adds one LLM call's tokens as it returns (an increment: durable per call, and no lost update). */
export async function addPlanningCallUsage(id: string, t: { promptTokens: number; completionTokens: number; calls: number }) {
  await db.planningCall.update({
    where: { id },
    data: { promptTokens: { increment: t.promptTokens }, completionTokens: { increment: t.completionTokens }, llmCalls: { increment: t.calls } },
  });
}

export async function endPlanningCall({ id, subjectId }: { id: string; subjectId?: string | null }) {
  await db.planningCall.update({ where: { id }, data: { endedAt: new Date(), ...(subjectId ? { subjectId } : {}) } });
}

/** The tokens of every planning call made for a subject (a clarification session). */
export async function planningUsageOf({ subjectId }: { subjectId: string }) {
  const sum = await db.planningCall.aggregate({ where: { subjectId }, _sum: { promptTokens: true, completionTokens: true, llmCalls: true } });
  return { promptTokens: sum._sum.promptTokens ?? 0, completionTokens: sum._sum.completionTokens ?? 0, llmCalls: sum._sum.llmCalls ?? 0 };
}
