// The Deep Research operations route handlers call: start (with the run guard's dedup), status,
// the conversations, stop. The start reply is built in one function (startReply), so queue mode's
// 202 with a jobId is a change in one place.
import { randomUUID } from "node:crypto";
import { startWithinLimits } from "../runs/limits";
import { assertResearchConfigured, getEnv } from "../env";
import { assertSourcesReadable, parseSources, WEB_ONLY } from "../knowledge/sources";
import { AppError } from "../errors";
import { claimConversation, createConversation, getConversation, getMessage, listConversations, releaseFailedStart, updateMessage, type Conversation } from "../db/conversations";
import { getClarificationSession } from "../db/clarification";
import { getRun, openRun, pausedOf } from "../db/runs";
import { runRegistry } from "../runs/engines";
import { parseJson } from "../db/json";
import type { ResearchMode, StartInput } from "./schema";
import { conversationSnapshot } from "./snapshot";
import { checkDatasetLimits, checkUploadNames, filesNotTaken, removeUploads, storeUploads, type CheckedUpload, type UploadedDataset } from "./uploads";
import { conversationStatus, listView, statusView } from "./views";

const DEFAULT_MODE: ResearchMode = "semi-autonomous";

/**
 * The reply to a start: in-process, 200 and processing; in queue mode (a job id given), 202 and
 * queued until a worker claims the run (the status then moves to processing, then completed).
 */
export function startReply(r: { messageId: string; conversationId: string; userId: string; deduplicated?: boolean; jobId?: string }) {
  if (r.jobId !== undefined) {
    return {
      status: 202,
      body: {
        jobId: r.jobId,
        messageId: r.messageId,
        conversationId: r.conversationId,
        userId: r.userId,
        status: "queued" as const,
        pollUrl: `/api/deep-research/status/${r.messageId}`,
        ...(r.deduplicated ? { deduplicated: true } : {}),
      },
    };
  }
  return {
    status: 200,
    body: {
      messageId: r.messageId,
      conversationId: r.conversationId,
      userId: r.userId,
      status: "processing" as const,
      pollUrl: `/api/deep-research/status/${r.messageId}`,
      ...(r.deduplicated ? { deduplicated: true } : {}),
    },
  };
}

async function approvedPlan(userId: string, sessionId: string) {
  const session = await getClarificationSession({ id: sessionId, userId });
  if (!session) throw new AppError("bad_request:deep_research", `Unknown clarification session: ${sessionId}`, { field: "clarificationSessionId" });
  if (session.status !== "plan_approved") {
    throw new AppError("bad_request:deep_research", `Clarification session must be approved. Current status: ${session.status}`, { field: "clarificationSessionId" });
  }
  const plan = parseJson<{ objective: string; initialTasks: unknown[] }>(session.plan, { objective: session.query, initialTasks: [] });
  return JSON.stringify({ sessionId, objective: plan.objective, tasks: plan.initialTasks });
}

export type StartReply = ReturnType<typeof startReply>;

export async function startDeepResearch({ userId, input, files = [] }: { userId: string; input: StartInput; files?: File[] }): Promise<StartReply> {
  const clarificationContext = input.clarificationSessionId ? await approvedPlan(userId, input.clarificationSessionId) : undefined;
  if (input.conversationId) {
    const existing = await getConversation({ id: input.conversationId, userId });
    if (!existing) throw new AppError("bad_request:deep_research", `Unknown conversation: ${input.conversationId}`, { field: "conversationId" });
    // One loop per conversation: a second start returns the active one and stores nothing; one
    // with files says they were not taken.
    if (existing.active) {
      await reviveIfOrphaned(existing.id, userId, existing.researchMode);
      if (files.length > 0) throw filesNotTaken(files.length);
      return startReply({ messageId: existing.rootMessageId!, conversationId: existing.id, userId, deduplicated: true });
    }
  }
  // A follow-up in a conversation keeps its sources unless the start names others. Collections only:
  // no web search, so no SearXNG needed.
  const existingSources = input.conversationId ? (await getConversation({ id: input.conversationId, userId }))?.sources : undefined;
  const sources = input.sources ?? (existingSources ? parseSources(existingSources) : undefined);
  assertResearchConfigured({ llm: true, search: sources?.web ?? true });
  if (sources) await assertSourcesReadable(userId, sources);
  // Bad file names are a 400 before anything is stored or claimed.
  const uploads = checkUploadNames(files, { maxFiles: getEnv().DATASET_MAX_FILES });
  // Per-user limits (429) are checked and the start stored under the user's start lock.
  const started = await startWithinLimits({ userId, pool: "research", start: () => storeStart({ userId, input, clarificationContext, uploads }) });
  if ("deduplicated" in started) return started.reply;
  const { conversationId, messageId } = started;
  const queued = await runRegistry.startOrQueue("deep-research", conversationId);
  return startReply({ messageId, conversationId, userId, jobId: queued?.jobId });
}

type Stored = { deduplicated: true; reply: StartReply } | { conversationId: string; messageId: string };

/**
 * Stores the start: its files first (within the conversation's dataset limits), then the claim of
 * the conversation (or its creation) with them listed, then its run. A step that fails undoes the
 * ones before it, so that a failed start leaves nothing claimed and no file behind.
 */
async function storeStart({ userId, input, clarificationContext, uploads }: { userId: string; input: StartInput; clarificationContext?: string; uploads: CheckedUpload[] }): Promise<Stored> {
  const env = getEnv();
  const existing = input.conversationId ? (await getConversation({ id: input.conversationId, userId }))! : null;
  const before = parseJson<UploadedDataset[]>(existing?.uploadedDatasets, []);
  checkDatasetLimits({ existing: before, uploads, maxFiles: env.DATASET_MAX_FILES, maxTotalBytes: env.DATASET_MAX_TOTAL_BYTES });
  // A new conversation's id is chosen here, so that its files are stored before its row exists.
  const conversationId = existing?.id ?? randomUUID();
  const stored = await storeUploads(env.UPLOADS_DIR, conversationId, uploads);
  const datasets = stored.length > 0 ? JSON.stringify([...before, ...stored]) : undefined;
  let claimed: Stored;
  try {
    claimed = await claimOrCreate({ userId, input, clarificationContext, existing, conversationId, datasets });
  } catch (error) {
    await removeUploads(env.UPLOADS_DIR, conversationId, stored);
    throw error;
  }
  if ("deduplicated" in claimed) {
    await removeUploads(env.UPLOADS_DIR, conversationId, stored);
    if (stored.length > 0) throw filesNotTaken(stored.length);
    return claimed;
  }
  try {
    await openRun({ kind: "deep-research", subjectId: conversationId, userId, mode: input.researchMode ?? existing?.researchMode ?? DEFAULT_MODE });
  } catch (error) {
    await releaseFailedStart({ id: conversationId, messageId: claimed.messageId, created: !existing, uploadedDatasets: existing?.uploadedDatasets ?? "[]", error: "The run could not be started." });
    await removeUploads(env.UPLOADS_DIR, conversationId, stored);
    throw error;
  }
  return claimed;
}

/** Claims the existing conversation for the start, or creates it, with the start's message. */
async function claimOrCreate({ userId, input, clarificationContext, existing, conversationId, datasets }: {
  userId: string; input: StartInput; clarificationContext?: string; existing: Conversation | null; conversationId: string; datasets?: string;
}): Promise<Stored> {
  const sessionId = input.clarificationSessionId ?? null;
  if (existing) {
    const claimed = await claimConversation({
      id: existing.id, researchMode: input.researchMode ?? existing.researchMode ?? DEFAULT_MODE, content: input.message,
      clarificationContext, clarificationSessionId: sessionId, uploadedDatasets: datasets, sources: input.sources && JSON.stringify(input.sources),
    });
    if (!claimed) {
      // Another start claimed it in between.
      const now = (await getConversation({ id: existing.id }))!;
      return { deduplicated: true as const, reply: startReply({ messageId: now.rootMessageId!, conversationId: existing.id, userId, deduplicated: true }) };
    }
    return { conversationId: existing.id, messageId: claimed.message.id };
  }
  const objective = clarificationContext ? parseJson<{ objective: string }>(clarificationContext, { objective: input.message }).objective : input.message;
  const created = await createConversation({
    id: conversationId, userId, researchMode: input.researchMode ?? DEFAULT_MODE, objective, content: input.message, uploadedDatasets: datasets ?? "[]",
    clarificationContext: clarificationContext ?? null, clarificationSessionId: sessionId, sources: JSON.stringify(input.sources ?? WEB_ONLY),
  });
  return { conversationId: created.conversation.id, messageId: created.message.id };
}

/**
 * A conversation marked active whose run is missing or has ended (its process died between storing
 * the start and queueing the run): queue the run again, so that the pending start goes on.
 */
async function reviveIfOrphaned(conversationId: string, userId: string, mode: string): Promise<void> {
  const run = await getRun({ kind: "deep-research", subjectId: conversationId });
  if (run && (run.status === "queued" || run.status === "running")) return;
  await openRun({ kind: "deep-research", subjectId: conversationId, userId, mode });
  void runRegistry.start("deep-research", conversationId).catch((error: unknown) => console.error(`[quarry] deep research ${conversationId} could not start:`, error));
}

export async function deepResearchStatus({ messageId, userId }: { messageId: string; userId: string }) {
  const m = await getMessage({ id: messageId, userId });
  if (!m) throw new AppError("not_found:message", "Message not found");
  // An assistant reply's status is its start's.
  const start = m.role === "assistant" && m.replyToId ? ((await getMessage({ id: m.replyToId, userId })) ?? m) : m;
  const c = (await getConversation({ id: m.conversationId }))!;
  // The run is the conversation's: its pause is this start's only while this start is the one running.
  const current = c.active && c.rootMessageId === start.id;
  const run = current ? await getRun({ kind: "deep-research", subjectId: c.id }) : null;
  // Queue mode: no worker has claimed the run yet. (In-process, the starting process claims it in
  // the moment after the start: that moment is processing already, as the start's reply said.)
  if (runRegistry.queueMode && run?.status === "queued" && start.status !== "completed" && start.status !== "failed") {
    return { status: "queued" as const, messageId: start.id, conversationId: c.id };
  }
  return statusView(start, c.currentObjective ?? c.objective, pausedOf(run));
}

export async function listUserConversations({ userId, limit, cursor, status, q }: { userId: string; limit: number; cursor?: string; status?: string; q?: string }) {
  const { rows, nextCursor } = await listConversations({ userId, limit, cursor, status, search: q || undefined });
  return {
    conversations: rows.map((c) => ({ ...listView(c), status: conversationStatus(c), isRunning: c.active, lastResult: c.lastResult })),
    nextCursor,
  };
}

export async function getConversationView({ id, userId }: { id: string; userId: string }) {
  const snapshot = await conversationSnapshot({ id, userId });
  if (!snapshot) throw new AppError("not_found:conversation", "Conversation not found");
  return snapshot;
}

/** Asks the loop to end after its current phase. */
export async function stopConversation({ id, userId }: { id: string; userId: string }) {
  const c = await getConversation({ id, userId });
  if (!c) throw new AppError("not_found:conversation", "Conversation not found");
  if (!c.active || !c.rootMessageId) throw new AppError("conflict:conversation", "This conversation has no active research to stop");
  await updateMessage(c.rootMessageId, { stopRequestedAt: new Date() });
  return { conversationId: id, messageId: c.rootMessageId, stopping: true };
}
