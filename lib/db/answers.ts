// Query functions for the answer agent: its runs (one per question), their steps, and the text of
// the pages they read (quotes are checked against it). JSON values are passed in as values and
// stored as text; the engine (lib/answer) owns their shapes.
import { db } from "./client";
import { executeDirect } from "./direct";
import { Prisma } from "../generated/prisma/client";
import { containsIgnoringCase } from "./portable";

/** Who a run belongs to: a user, or null for the runs of no account (the CLI without --email). */
export type AnswerOwner = { userId: string | null };

/**
 * Null when the owner used the requestId already. Request ids are per owner: another user's taking
 * an id says nothing about it existing.
 */
export async function createAnswerRun(data: { userId: string | null; requestId: string; question: string; context: string; sources?: string; budget: number; maxBadAttempt: number; state: unknown; usage: unknown }) {
  // The unique index does not cover a null owner (NULLs differ in SQL): the owner-less runs of the CLI are checked here.
  if (data.userId === null && (await requestIdTaken({ userId: null, requestId: data.requestId }))) return null;
  try {
    return await db.answerRun.create({ data: { ...data, state: JSON.stringify(data.state), usage: JSON.stringify(data.usage) } });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return null;
    throw error;
  }
}

export async function requestIdTaken({ requestId, userId }: { requestId: string } & AnswerOwner): Promise<boolean> {
  return (await db.answerRun.findFirst({ where: { userId, requestId }, select: { id: true } })) !== null;
}

/** The owner's run with this requestId (always scoped: ids are unique per owner only). */
export async function getAnswerRun({ requestId, userId }: { requestId: string } & AnswerOwner) {
  return db.answerRun.findFirst({ where: { userId, requestId } });
}

export async function loadAnswerRun(id: string) {
  return db.answerRun.findUnique({ where: { id } });
}

export async function listAnswerRuns({ userId, limit, before, status, search }: { userId: string | null; limit: number; before?: Date; status?: string; search?: string }) {
  return db.answerRun.findMany({
    where: { userId, ...(before ? { createdAt: { lt: before } } : {}), ...(status ? { status } : {}), ...(search ? { question: containsIgnoringCase(search) } : {}) },
    orderBy: { createdAt: "desc" },
    take: limit,
    omit: { state: true, context: true },
  });
}

export async function answerSteps(runId: string) {
  return db.answerStep.findMany({ where: { runId }, orderBy: { step: "asc" } });
}

export async function markAnswerRunning(id: string) {
  await db.answerRun.updateMany({ where: { id, status: { in: ["queued", "running"] } }, data: { status: "running", startedAt: new Date() } });
}

/**
 * A step and the loop state after it, in one transaction: a run resumed after a crash starts from
 * the last step stored, never half of one. A step stored already (a replay) changes nothing.
 */
export async function saveAnswerStep(s: { runId: string; step: number; seq: number; action: string; gap: string; think: string; payload: unknown; usage: unknown; trackers: unknown; state: unknown; runUsage: unknown; totalTokens: number }) {
  return db.$transaction(async (tx) => {
    const exists = await tx.answerStep.findUnique({ where: { runId_step: { runId: s.runId, step: s.step } }, select: { id: true } });
    if (exists) return false;
    await tx.answerStep.create({
      data: { runId: s.runId, step: s.step, seq: s.seq, action: s.action, gap: s.gap, think: s.think, payload: JSON.stringify(s.payload), usage: JSON.stringify(s.usage), trackers: JSON.stringify(s.trackers) },
    });
    await tx.answerRun.update({ where: { id: s.runId }, data: { state: JSON.stringify(s.state), usage: JSON.stringify(s.runUsage), totalTokens: s.totalTokens } });
    return true;
  });
}

/** Usage spent outside a step (a call the budget let run before it stopped the step). */
export async function saveAnswerUsage({ id, usage, totalTokens }: { id: string; usage: unknown; totalTokens: number }) {
  await db.answerRun.update({ where: { id }, data: { usage: JSON.stringify(usage), totalTokens } });
}

/** Counts a call as unsettled before it is sent (see UsageSink in lib/ai/usage.ts): a crash leaves it counted. */
export async function beginAnswerUsage(id: string) {
  await executeDirect(Prisma.sql`UPDATE "AnswerRun" SET "llmCallsUnsettled" = "llmCallsUnsettled" + 1 WHERE "id" = ${id}`);
}

/** Stores the run's usage with a begun call's share in it, and settles that call (beginAnswerUsage). */
export async function settleAnswerUsage({ id, usage, totalTokens }: { id: string; usage: unknown; totalTokens: number }) {
  await db.answerRun.update({ where: { id }, data: { usage: JSON.stringify(usage), totalTokens, llmCallsUnsettled: { decrement: 1 } } });
}

export async function saveAnswerPage({ runId, url, title, content }: { runId: string; url: string; title: string | null; content: string }) {
  await db.answerPage.upsert({ where: { runId_url: { runId, url } }, create: { runId, url, title, content }, update: {} });
}

export async function answerPages(runId: string) {
  return db.answerPage.findMany({ where: { runId }, orderBy: { createdAt: "asc" } });
}

/** Ends the run with its final event's number (for stream replay); false when a cancel came first. */
export async function finishAnswerRun({ id, ...data }: { id: string; status: "completed" | "failed"; finalSeq: number; answer?: string | null; references?: unknown; error?: string | null; usage: unknown; totalTokens: number }) {
  // A cancel recorded meanwhile wins: the run stays cancelled.
  const { count } = await db.answerRun.updateMany({
    where: { id, status: "running" },
    data: {
      status: data.status,
      answer: data.answer ?? null,
      references: JSON.stringify(data.references ?? []),
      error: data.error ?? null,
      usage: JSON.stringify(data.usage),
      totalTokens: data.totalTokens,
      finalSeq: data.finalSeq,
      completedAt: new Date(),
    },
  });
  return count === 1;
}

/** False if it was not running (or queued). */
export async function markAnswerCancelled(id: string): Promise<boolean> {
  const { count } = await db.answerRun.updateMany({ where: { id, status: { in: ["queued", "running"] } }, data: { status: "cancelled", error: "Cancelled by the user", completedAt: new Date() } });
  return count === 1;
}

/** A run's stored steps numbered above `after`: their progress events' numbers and trackers, in order. */
export async function answerStepEventsAfter({ runId, after }: { runId: string; after: number }) {
  const rows = await db.answerStep.findMany({ where: { runId, seq: { gt: after } }, select: { seq: true, trackers: true }, orderBy: { step: "asc" } });
  return rows.map((r) => ({ seq: r.seq!, trackers: r.trackers }));
}

/** The ids of the user's answer runs that have not ended (for the per-user limits). */
export async function runningAnswerIds({ userId }: { userId: string }): Promise<string[]> {
  const rows = await db.answerRun.findMany({ where: { userId, status: { in: ["queued", "running"] } }, select: { id: true } });
  return rows.map((r) => r.id);
}

/** When the user's answer runs started since `since`, oldest first, at most `limit` of them. */
export async function listAnswerStartTimes({ userId, since, limit }: { userId: string; since: Date; limit: number }): Promise<Date[]> {
  const rows = await db.answerRun.findMany({ where: { userId, createdAt: { gte: since } }, select: { createdAt: true }, orderBy: { createdAt: "asc" }, take: limit });
  return rows.map((r) => r.createdAt);
}

/** The start times of the user's answer runs that have not ended (for when a slot frees). */
export async function listRunningAnswerStarts({ userId }: { userId: string }): Promise<Date[]> {
  const rows = await db.answerRun.findMany({ where: { userId, status: { in: ["queued", "running"] } }, select: { createdAt: true, startedAt: true } });
  return rows.map((r) => r.startedAt ?? r.createdAt);
}

/** How long the user's last finished answer runs took, in milliseconds, newest first. */
export async function recentAnswerDurations({ userId, limit }: { userId: string; limit: number }): Promise<number[]> {
  const rows = await db.answerRun.findMany({
    where: { userId, status: { in: ["completed", "failed"] }, startedAt: { not: null }, completedAt: { not: null } },
    select: { startedAt: true, completedAt: true },
    orderBy: { createdAt: "desc" },
    take: limit,
  });
  return rows.map((r) => r.completedAt!.getTime() - r.startedAt!.getTime());
}

/** The user's latest runs of this question, conversation and budget in these statuses (an identical request's candidates to join). */
export async function findAnswerRunsLike({ userId, question, context, budget, statuses }: { userId: string | null; question: string; context: string; budget: number; statuses: string[] }) {
  return db.answerRun.findMany({ where: { userId, question, context, budget, status: { in: statuses } }, orderBy: { createdAt: "desc" }, take: 5 });
}

