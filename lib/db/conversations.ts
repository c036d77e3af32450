// Query functions for Deep Research conversations: the world state (one row, written with a version
// compare-and-set so that no update overwrites another), the run guard's fields, and messages.
import { db } from "./client";
import type { Conversation, ConversationMessage, Prisma } from "../generated/prisma/client";
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
      data: { userId: data.userId, researchMode: data.researchMode, objective: data.objective, uploadedDatasets: data.uploadedDatasets, clarificationContext: data.clarificationContext, sources: data.sources, active: true },
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

/** Adds one LLM call's tokens as it returns (no version bump: it is a counter, not world state). */
export async function addConversationUsage(id: string, t: { promptTokens: number; completionTokens: number; calls: number }) {
  await db.$executeRaw`
    UPDATE "Conversation" SET "promptTokens" = "promptTokens" + ${t.promptTokens},
      "completionTokens" = "completionTokens" + ${t.completionTokens}, "llmCalls" = "llmCalls" + ${t.calls}
    WHERE "id" = ${id}`;
}

/** How many of the user's conversations have a loop active (for the per-user run limit). */
export async function countActiveConversations({ userId }: { userId: string }) {
  return db.conversation.count({ where: { userId, active: true } });
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
