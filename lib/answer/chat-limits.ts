// A chat client's calls outside runs, within the user's limits and recorded against the user: the
// plain call of model quarry-chat (and of a chat UI's housekeeping sent to quarry-answer), and the
// small call that classifies a chat request (lib/answer/task.ts). Each is a row of the user's LLM
// calls (lib/db/planning-calls.ts) carrying its tokens, written before the first request is sent, so
// a call aborted or crashed midway stays on the user's record.
import { randomUUID } from "node:crypto";
import { estimatedTokens, type TokenCount, type UsageSink } from "../ai/usage";
import { sleep } from "../concurrency";
import { countChatCallsInFlight, listChatCallStartTimes } from "../db/chat-calls";
import { addPlanningCallUsage, endPlanningCall, insertPlanningCall, type ChatCallKind } from "../db/planning-calls";
import { acquireUserStartLock, releaseUserStartLock } from "../db/users";
import { getEnv } from "../env";
import { AppError, errorMessage } from "../errors";

const HOUR_MS = 3_600_000;
const LOCK_LEASE_MS = 15_000;
const LOCK_WAIT_MS = 10_000;

/** A call not ended after this long is not in flight any more: its process died. */
const staleMs = () => 2 * (getEnv().LLM_TIMEOUT_MS + getEnv().LLM_RETRY_BUDGET_MS);

/** 429 (with Retry-After) when the user has as many chat calls going, or made as many this hour, as allowed. */
export async function assertChatWithinLimits(userId: string, now = new Date()): Promise<void> {
  const env = getEnv();
  const inFlight = await countChatCallsInFlight({ userId, since: new Date(now.getTime() - staleMs()) });
  if (inFlight >= env.MAX_CONCURRENT_CHAT_CALLS_PER_USER)
    throw new AppError("rate_limit:concurrent_chat_calls", `You already have ${inFlight} chat calls going (the limit is ${env.MAX_CONCURRENT_CHAT_CALLS_PER_USER}). Wait for one to finish, then try again.`, { retryAfterSeconds: 5 });
  const max = env.RATE_LIMIT_CHAT_CALLS_PER_HOUR;
  const recent = await listChatCallStartTimes({ userId, since: new Date(now.getTime() - HOUR_MS), limit: max });
  if (recent.length >= max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((recent[0].getTime() + HOUR_MS - now.getTime()) / 1000));
    throw new AppError("rate_limit:chat_calls", `You have made ${max} chat calls in the last hour, the limit. Try again in about ${Math.ceil(retryAfterSeconds / 60)} minutes.`, { retryAfterSeconds });
  }
}

/** Checks the limits and records the call under the user's start lock: simultaneous requests cannot both take the last slot. */
async function underUserLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  const owner = randomUUID();
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!(await acquireUserStartLock({ userId, owner, leaseMs: LOCK_LEASE_MS }))) {
    if (Date.now() > deadline) throw new AppError("rate_limit:start_busy", "Another start of yours is still being processed. Try again in a moment.", { retryAfterSeconds: 5 });
    await sleep(20 + Math.random() * 30);
  }
  try {
    return await fn();
  } finally {
    await releaseUserStartLock({ userId, owner });
  }
}

export interface ChatCallScope {
  /** Adds each LLM call's tokens to the row (pass it as the call's onUsage). */
  onUsage: UsageSink;
  /** The tokens recorded so far. */
  used(): TokenCount;
}

/**
 * Runs `fn` as one chat call of the user: "chat-task" within the chat limits, "chat-classify" (a few
 * hundred tokens, part of a request that is limited as a whole) recorded only. No user (the CLI
 * without an account): no limits and no record, as for runs of no account.
 */
export async function withChatCall<T>(
  { userId, kind, subjectId, signal, promptChars = 0 }: { userId: string | null; kind: ChatCallKind; subjectId?: string; signal?: AbortSignal; promptChars?: number },
  fn: (scope: ChatCallScope) => Promise<T>,
): Promise<T> {
  let used: TokenCount = { promptTokens: 0, completionTokens: 0, calls: 0 };
  // A call the client's going away cut off was sent and its prompt paid for, with no usage told:
  // counted with its prompt's estimate (about 4 characters a token), as a run's are (budget.ts).
  const counted = (t: TokenCount): TokenCount => (t.calls === 0 && signal?.aborted ? { promptTokens: estimatedTokens(promptChars), completionTokens: 0, calls: 1 } : t);
  const count = (t: TokenCount) => void (used = { promptTokens: used.promptTokens + t.promptTokens, completionTokens: used.completionTokens + t.completionTokens, calls: used.calls + t.calls });
  // With `begin`, a failed call settles too (with zero usage): the aborted one is then counted.
  const begin = () => {};
  if (!userId) return fn({ onUsage: Object.assign((t: TokenCount) => count(counted(t)), { begin }), used: () => used });
  const row = kind === "chat-task" ? await underUserLock(userId, async () => (await assertChatWithinLimits(userId), insertPlanningCall({ userId, kind, subjectId }))) : await insertPlanningCall({ userId, kind, subjectId });
  const onUsage: UsageSink = Object.assign(
    async (t: TokenCount) => {
      const c = counted(t);
      count(c);
      if (c.calls || c.promptTokens || c.completionTokens) await addPlanningCallUsage(row.id, c);
    },
    { begin },
  );
  try {
    return await fn({ onUsage, used: () => used });
  } finally {
    await endPlanningCall({ id: row.id }).catch((error: unknown) => console.error(`[quarry] chat call ${row.id} could not be closed: ${errorMessage(error)}`));
  }
}

/** Records tokens already spent (a classification whose request then joined a run) as a chat call of their own. */
export async function recordChatUsage({ userId, kind, usage, subjectId }: { userId: string | null; kind: ChatCallKind; usage: TokenCount; subjectId?: string }): Promise<void> {
  if (!userId || usage.calls === 0) return;
  await withChatCall({ userId, kind, subjectId }, async ({ onUsage }) => onUsage(usage));
}
