// Per-user limits on starting research: starts per hour and concurrently running researches.
// Counted from the database (durable across restarts); the check and the start run under a per-user
// lock held in the database, so that two simultaneous requests — to one server process or several —
// cannot both pass the last free slot.
import { randomUUID } from "node:crypto";
import { sleep } from "../concurrency";
import { countRunningResearches, listStartTimes } from "../db/research";
import { countActiveConversations, listConversationStartTimes } from "../db/conversations";
import { acquireUserStartLock, releaseUserStartLock } from "../db/users";
import { getEnv } from "../env";
import { AppError } from "../errors";

const HOUR_MS = 60 * 60 * 1000;

export async function assertCanStartResearch({ userId, now = new Date() }: { userId: string; now?: Date }): Promise<void> {
  const env = getEnv();
  // Tree researches and Deep Research loops share the limits.
  const running = (await countRunningResearches({ userId })) + (await countActiveConversations({ userId }));
  if (running >= env.MAX_CONCURRENT_RUNS_PER_USER) {
    throw new AppError(
      "rate_limit:concurrent_runs",
      `You already have ${running} researches running (the limit is ${env.MAX_CONCURRENT_RUNS_PER_USER}). Wait for one to finish or cancel one, then try again.`,
      { retryAfterSeconds: 60 },
    );
  }
  const since = new Date(now.getTime() - HOUR_MS);
  const recent = [
    ...(await listStartTimes({ userId, since, limit: env.RATE_LIMIT_STARTS_PER_HOUR })),
    ...(await listConversationStartTimes({ userId, since, limit: env.RATE_LIMIT_STARTS_PER_HOUR })),
  ].sort((a, b) => a.getTime() - b.getTime());
  if (recent.length >= env.RATE_LIMIT_STARTS_PER_HOUR) {
    const oldest = recent[0];
    const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
    const minutes = Math.ceil(retryAfter / 60);
    throw new AppError(
      "rate_limit:research_starts",
      `You have started ${env.RATE_LIMIT_STARTS_PER_HOUR} researches in the last hour, the limit. Try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      { retryAfterSeconds: retryAfter },
    );
  }
}

const globalForLocks = globalThis as unknown as { quarryStartLocks?: Map<string, Promise<unknown>> };
const locks = (globalForLocks.quarryStartLocks ??= new Map());

/** How long a start may hold the lock (a holder that crashed frees it after this), and wait for it. */
const LOCK_LEASE_MS = 15_000;
const LOCK_WAIT_MS = 10_000;

/** Runs `fn` holding the user's start lock in the database, waiting for another holder to finish. */
async function withDatabaseLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  const owner = randomUUID();
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!(await acquireUserStartLock({ userId, owner, leaseMs: LOCK_LEASE_MS }))) {
    if (Date.now() > deadline) {
      throw new AppError("rate_limit:start_busy", "Another start of yours is still being processed. Try again in a moment.", { retryAfterSeconds: 5 });
    }
    await sleep(20 + Math.random() * 30);
  }
  try {
    return await fn();
  } finally {
    await releaseUserStartLock({ userId, owner });
  }
}

/**
 * Runs `fn` after the user's previous guarded call in this process has settled (no polling for the
 * common case), holding the user's start lock in the database (for other processes).
 */
export async function withUserStartLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(userId) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(() => withDatabaseLock(userId, fn));
  locks.set(userId, current);
  try {
    return await current;
  } finally {
    if (locks.get(userId) === current) locks.delete(userId);
  }
}

/**
 * Checks the limits and starts the research under the user's lock. `start` must have marked the
 * research running (status + startedAt) in the database before it resolves.
 */
export function startWithinLimits<T>({ userId, start }: { userId: string; start: () => Promise<T> }): Promise<T> {
  return withUserStartLock(userId, async () => {
    await assertCanStartResearch({ userId });
    return start();
  });
}
