// Query functions for Deep Research conversations: the world state (one row, written with a version
// compare-and-set so that no update overwrites another), the run guard's fields, and messages.
import { db } from "./client";
import { Prisma, type Conversation, type ConversationMessage } from "../generated/prisma/client";
import { executeDirect } from "./direct";
import { usageCounters } from "./combined-counters";
import { containsIgnoringCase } from "./portable";

export type { Conversation, ConversationMessage };
export type ConversationPatch = Partial<
  Pick<
    Conversation,
    | "researchMode" | "currentObjective" | "evolvingObjective" | "conversationTitle" | "keyInsights" | "methodology"
    | "currentHypothesis" | "suggestedNextSteps" | "currentLevel" | "uploadedDatasets" | "clarificationContext"
    | "active" | "rootMessageId" | "lastResult" | "lastError" | "runEndedAt" | "reflectedLevel"
  >
>;

/** Retries of a compare-and-set before giving up: each retry means another writer just succeeded. */
const CAS_ATTEMPTS = 50;

export async function getConversation({ id, userId }: { id: string; userId?: string }) {
  return db.conversation.findFirst({ where: { id, ...(userId === undefined ? {} : { userId }) } });
}

/**
 * Applies `change` to the current row and writes it only if nobody wrote in between (version
 * compare-and-set); otherwise reads again and retries. `change` returns null to write nothing.
 */
export async function updateConversation(id: string, change: (current: Conversation) => ConversationPatch | null): Promise<Conversation> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const current = await db.conversation.findUniqueOrThrow({ where: { id } });
    const patch = change(current);
    if (!patch) return current;
    const { count } = await db.conversation.updateMany({ where: { id, version: current.version }, data: { ...patch, version: { increment: 1 } } });
    if (count === 1) return db.conversation.findUniqueOrThrow({ where: { id } });
  }
  throw new Error(`Conversation ${id}: too many concurrent updates`);
}

/** A new conversation, already claimed by its first start, with that start's user message. */
export async function createConversation(data: {
  /** Chosen by the caller when it stores files under the conversation's id before creating it. */
  id?: string;
  userId: string;
  researchMode: string;
  objective: string;
  content: string;
  uploadedDatasets: string;
  clarificationContext: string | null;
  clarificationSessionId: string | null;
  /** JSON { web, collections }. */
  sources?: string;
}) {
  return db.$transaction(async (tx) => {
    const conversation = await tx.conversation.create({
      data: { ...(data.id ? { id: data.id } : {}), userId: data.userId, researchMode: data.researchMode, objective: data.objective, uploadedDatasets: data.uploadedDatasets, clarificationContext: data.clarificationContext, sources: data.sources, active: true },
    });
    const message = await tx.conversationMessage.create({
      data: { conversationId: conversation.id, role: "user", content: data.content, status: "processing", researchMode: data.researchMode, phase: "plan", phaseStartedAt: new Date(), iteration: 1, clarificationSessionId: data.clarificationSessionId },
    });
    const claimed = await tx.conversation.update({ where: { id: conversation.id }, data: { rootMessageId: message.id, version: { increment: 1 } } });
    return { conversation: claimed, message };
  });
}

/**
 * Claims an existing conversation for a new start (the run guard): false when a loop is active,
 * and then nothing is stored. On success the start's user message is stored and becomes the root.
 */
export async function claimConversation(data: {
  id: string;
  researchMode: string;
  content: string;
  uploadedDatasets?: string;
  clarificationContext?: string | null;
  clarificationSessionId: string | null;
  /** JSON { web, collections }: a new start may change where the next literature tasks search. */
  sources?: string;
}): Promise<{ conversation: Conversation; message: ConversationMessage } | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({ where: { id: data.id, active: false }, data: { active: true, version: { increment: 1 } } });
    if (count === 0) return null;
    const message = await tx.conversationMessage.create({
      data: { conversationId: data.id, role: "user", content: data.content, status: "processing", researchMode: data.researchMode, phase: "plan", phaseStartedAt: new Date(), iteration: 1, clarificationSessionId: data.clarificationSessionId },
    });
    const conversation = await tx.conversation.update({
      where: { id: data.id },
      data: {
        rootMessageId: message.id,
        researchMode: data.researchMode,
        lastError: null,
        runEndedAt: null,
        ...(data.uploadedDatasets !== undefined ? { uploadedDatasets: data.uploadedDatasets } : {}),
        ...(data.clarificationContext !== undefined ? { clarificationContext: data.clarificationContext } : {}),
        ...(data.sources !== undefined ? { sources: data.sources } : {}),
        version: { increment: 1 },
      },
    });
    return { conversation, message };
  });
}

/**
 * Undoes a start whose run could not be opened, so that nothing stays claimed: a conversation the
 * start created is deleted; an existing one is released, its start's message marked failed and its
 * datasets put back as they were.
 */
export async function releaseFailedStart(data: { id: string; messageId: string; created: boolean; uploadedDatasets: string; error: string }) {
  if (data.created) {
    await db.conversation.deleteMany({ where: { id: data.id } });
    return;
  }
  await db.$transaction([
    db.conversationMessage.updateMany({ where: { id: data.messageId }, data: { status: "failed", error: data.error, completedAt: new Date() } }),
    db.conversation.updateMany({
      where: { id: data.id, rootMessageId: data.messageId },
      data: { active: false, lastResult: "failed", lastError: data.error, runEndedAt: new Date(), uploadedDatasets: data.uploadedDatasets, version: { increment: 1 } },
    }),
  ]);
}

/** The status filter of a list, as a condition on the run guard and the last run's result. */
function statusWhere(status?: string): Prisma.ConversationWhereInput {
  if (!status) return {};
  if (status === "running") return { active: true };
  if (status === "failed") return { active: false, lastResult: "failed" };
  if (status === "completed") return { active: false, OR: [{ lastResult: null }, { lastResult: { not: "failed" } }] };
  return { id: { in: [] } }; // draft, cancelled: a conversation is never either
}

export async function listConversations({ userId, limit, cursor, status, search }: { userId: string; limit: number; cursor?: string; status?: string; search?: string }) {
  const text = search ? containsIgnoringCase(search) : null;
  const rows = await db.conversation.findMany({
    where: {
      userId,
      AND: [statusWhere(status), text ? { OR: [{ objective: text }, { conversationTitle: text }, { currentObjective: text }] } : {}],
    },
    // A list never shows the datasets' metadata (up to DATASET_MAX_FILES previews each): not read.
    omit: { uploadedDatasets: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
  });
  return { rows: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1].id : null };
}

export async function getMessage({ id, userId }: { id: string; userId?: string }) {
  return db.conversationMessage.findFirst({ where: { id, ...(userId === undefined ? {} : { conversation: { userId } }) } });
}

export async function messagesOf(conversationId: string) {
  return db.conversationMessage.findMany({ where: { conversationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** The most recent messages (newest last), for prompts. */
export async function recentMessages(conversationId: string, take: number) {
  const rows = await db.conversationMessage.findMany({ where: { conversationId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take });
  return rows.reverse();
}

export type MessagePatch = Partial<
  Pick<ConversationMessage, "status" | "iteration" | "level" | "phase" | "state" | "resultText" | "suggestedNextSteps" | "error" | "startedAt" | "completedAt" | "stopRequestedAt">
>;

/** A move to another phase (or iteration) records when it started. */
function withPhaseStart(patch: MessagePatch): MessagePatch & { phaseStartedAt?: Date } {
  return patch.phase !== undefined || patch.iteration !== undefined ? { ...patch, phaseStartedAt: new Date() } : patch;
}

/** Moves a start's message from one phase to the next; false if it was not at `from` (done already). */
export async function advanceMessage(id: string, from: { phase: string; iteration: number }, patch: MessagePatch): Promise<boolean> {
  const { count } = await db.conversationMessage.updateMany({ where: { id, phase: from.phase, iteration: from.iteration }, data: withPhaseStart(patch) });
  return count === 1;
}

export async function updateMessage(id: string, patch: MessagePatch) {
  return db.conversationMessage.update({ where: { id }, data: withPhaseStart(patch) });
}

/**
 * Ends a start's message: a compare-and-set from `processing`, so that no terminal status overwrites
 * another (a process that lost the run and the one that took it over cannot both end it). Null when
 * it had ended already.
 */
export async function finishMessage(id: string, patch: Pick<MessagePatch, "status" | "error" | "resultText" | "suggestedNextSteps" | "completedAt">) {
  const { count } = await db.conversationMessage.updateMany({ where: { id, status: "processing" }, data: patch });
  return count === 1 ? db.conversationMessage.findUnique({ where: { id } }) : null;
}

/**
 * Stores an iteration's assistant reply once (keyed by the start and the iteration) and moves the
 * start's message on, in one transaction: a crash cannot store it twice or lose it.
 */
export async function saveReply(data: { conversationId: string; rootId: string; iteration: number; content: string; suggestedNextSteps: string; next: MessagePatch }) {
  return db.$transaction(async (tx) => {
    const { count } = await tx.conversationMessage.updateMany({ where: { id: data.rootId, phase: "reply", iteration: data.iteration }, data: withPhaseStart(data.next) });
    if (count === 0) return null;
    return tx.conversationMessage.create({
      data: { conversationId: data.conversationId, role: "assistant", content: data.content, iteration: data.iteration, suggestedNextSteps: data.suggestedNextSteps, replyToId: data.rootId },
    });
  });
}

/** A conversation's usage counters, combined while one write is in flight (lib/db/combined-counters.ts): a level's tasks call the LLM at once. */
const conversationUsage = usageCounters("Conversation");

/** Counts a call as unsettled before it is sent (see UsageSink): a crash leaves it counted. */
export async function beginConversationUsage(id: string) {
  await conversationUsage.add(id, { llmCallsUnsettled: 1 });
}

/**
 * Adds a begun call's tokens as it returns and settles it (beginConversationUsage); no version
 * bump: it is a counter, not world state.
 */
export async function addConversationUsage(id: string, t: { promptTokens: number; completionTokens: number; calls: number }) {
  await conversationUsage.add(id, { promptTokens: t.promptTokens, completionTokens: t.completionTokens, llmCalls: t.calls, llmCallsUnsettled: -1 });
}

/**
 * The user's conversations that have a loop going (for the per-user run limit): claimed (active)
 * with a run queued or running. A claim whose run is missing or ended (its start failed or its
 * process died before opening the run) counts only for `claimGraceMs` after the claim (the time a
 * start takes to open its run), so that it cannot hold one of the user's slots forever.
 */
export async function activeConversationIds({ userId, claimGraceMs = 120_000, now = new Date() }: { userId: string; claimGraceMs?: number; now?: Date }): Promise<string[]> {
  const active = await db.conversation.findMany({ where: { userId, active: true }, select: { id: true, updatedAt: true } });
  if (active.length === 0) return [];
  const live = await db.run.findMany({
    where: { kind: "deep-research", subjectId: { in: active.map((c) => c.id) }, status: { in: ["queued", "running"] } },
    select: { subjectId: true },
  });
  const withRun = new Set(live.map((r) => r.subjectId));
  const claimedSince = now.getTime() - claimGraceMs;
  return active.filter((c) => withRun.has(c.id) || c.updatedAt.getTime() >= claimedSince).map((c) => c.id);
}

/** The start times of the user's Deep Research starts still being processed (for when a slot frees). */
export async function listRunningConversationStarts({ userId }: { userId: string }): Promise<Date[]> {
  const rows = await db.conversationMessage.findMany({
    where: { role: "user", status: "processing", conversation: { userId, active: true } },
    select: { startedAt: true, createdAt: true },
  });
  return rows.map((r) => r.startedAt ?? r.createdAt);
}

/** How long the user's last finished Deep Research starts took, in milliseconds, newest first. */
export async function recentConversationStartDurations({ userId, limit }: { userId: string; limit: number }): Promise<number[]> {
  const rows = await db.conversationMessage.findMany({
    where: { role: "user", status: { in: ["completed", "failed"] }, startedAt: { not: null }, completedAt: { not: null }, conversation: { userId } },
    select: { startedAt: true, completedAt: true },
    orderBy: { completedAt: "desc" },
    take: limit,
  });
  return rows.map((r) => r.completedAt!.getTime() - r.startedAt!.getTime());
}

/** When the user's Deep Research starts since `since` happened, oldest first (for the hourly limit). */
export async function listConversationStartTimes({ userId, since, limit }: { userId: string; since: Date; limit: number }): Promise<Date[]> {
  const rows = await db.conversationMessage.findMany({
    where: { role: "user", createdAt: { gte: since }, conversation: { userId } },
    select: { createdAt: true },
    orderBy: { createdAt: "asc" },
    take: limit,
  });
  return rows.map((r) => r.createdAt);
}

/** Replaces a reply's text (the write-up after its citation check repaired it). */
export async function setMessageContent(id: string, content: string) {
  return db.conversationMessage.update({ where: { id }, data: { content } });
}
