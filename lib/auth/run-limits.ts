// Per-user limits on starting research: starts per hour and concurrently running researches.
// Counted from the database (durable across restarts); the check and the start run under a per-user
// lock so that two simultaneous requests cannot both pass the last free slot.
import { countRunningResearches, listStartTimes } from "../db/research";
import { getEnv } from "../env";
import { AppError } from "../errors";

const HOUR_MS = 60 * 60 * 1000;

export async function assertCanStartResearch({ userId, now = new Date() }: { userId: string; now?: Date }): Promise<void> {
  const env = getEnv();
  const running = await countRunningResearches({ userId });
  if (running >= env.MAX_CONCURRENT_RUNS_PER_USER) {
    throw new AppError(
      "rate_limit:concurrent_runs",
      `You already have ${running} researches running (the limit is ${env.MAX_CONCURRENT_RUNS_PER_USER}). Wait for one to finish or cancel one, then try again.`,
      { headers: { "Retry-After": "60" } },
    );
  }
  const since = new Date(now.getTime() - HOUR_MS);
  const recent = await listStartTimes({ userId, since, limit: env.RATE_LIMIT_STARTS_PER_HOUR });
  if (recent.length >= env.RATE_LIMIT_STARTS_PER_HOUR) {
    const oldest = recent[0];
    const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
    const minutes = Math.ceil(retryAfter / 60);
    throw new AppError(
      "rate_limit:research_starts",
      `You have started ${env.RATE_LIMIT_STARTS_PER_HOUR} researches in the last hour, the limit. Try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      { headers: { "Retry-After": String(retryAfter) } },
    );
  }
}

const globalForLocks = globalThis as unknown as { quarryStartLocks?: Map<string, Promise<unknown>> };
const locks = (globalForLocks.quarryStartLocks ??= new Map());

/** Runs `fn` after the user's previous guarded call has settled. */
export async function withUserStartLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(userId) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(fn);
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
