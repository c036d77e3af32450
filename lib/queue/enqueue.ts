// Queueing a run: the web process's (and the orphan sweep's) side of queue mode. A job carries only
// the run's kind and subject; a worker claims the Run row's lease before executing, so a duplicate or
// retried job can never run an engine twice at once, and the engines resume from the database.
// Redis down or unreachable: a start is refused at once with a 503 and Retry-After before anything is
// stored (queueReachable, asked under the user's start lock: lib/runs/limits.ts), and an enqueue never
// waits longer than QUEUE_ENQUEUE_TIMEOUT_MS. A run whose row was stored but whose job could not be
// added (Redis went away in between) stays queued: the orphan sweep of any web process or worker adds
// its job once Redis answers again (lib/runs/registry.ts, takeOverOrphans).
import { liveRunsOfUser, type RunKind } from "../db/runs";
import { getEnv } from "../env";
import { redis, redisKey, redisReady } from "../redis";
import { queueConnection, RUNS_QUEUE, runJobId, runsQueue } from "./connection";

/**
 * Whether the runs queue's Redis can take a job now: false at once while its connection is
 * reconnecting or closed; a connection still making its first one is waited for up to
 * QUEUE_ENQUEUE_TIMEOUT_MS.
 */
export function queueReachable(): Promise<boolean> {
  return redisReady(queueConnection(RUNS_QUEUE), getEnv().QUEUE_ENQUEUE_TIMEOUT_MS);
}

/** `work`, or an error once `ms` pass without its answer (its commands may still reach Redis later: adding a job is idempotent by its id). */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the run queue (Redis) did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Attempts of a job whose processing throws (the database or Redis failing; an engine's failure is the run's, not the job's). */
const ATTEMPTS = 5;
/** Ranks are BullMQ priorities (1 first); a user's tenth live run waits behind everyone's first. */
const MAX_RANK = 1_000;

/**
 * Queues the run's job unless it is queued already (waiting, delayed or held by a worker). A job that
 * ended (completed or failed) while its run was reopened is replaced.
 */
export async function enqueueRun(kind: RunKind, subjectId: string): Promise<{ jobId: string; added: boolean }> {
  // The error names the job id the run's job will have once Redis takes it (the sweep adds it then).
  const jobId = runJobId(kind, subjectId);
  if (!(await queueReachable())) throw Object.assign(new Error("the run queue (Redis) cannot be reached"), { jobId });
  const added = addRunJob(kind, subjectId);
  // A late failure after the timeout is the sweep's to repair, not an unhandled rejection.
  added.catch(() => {});
  return within(added, getEnv().QUEUE_ENQUEUE_TIMEOUT_MS).catch((error: unknown) => {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { jobId });
  });
}

async function addRunJob(kind: RunKind, subjectId: string): Promise<{ jobId: string; added: boolean }> {
  const queue = runsQueue();
  const jobId = runJobId(kind, subjectId);
  const existing = await queue.getJob(jobId);
  if (existing) {
    const state = await existing.getState();
    if (state !== "completed" && state !== "failed" && state !== "unknown") return { jobId, added: false };
    await existing.remove().catch(() => {});
  }
  await queue.add(kind, { kind, subjectId }, {
    jobId,
    priority: await fairRank(kind, subjectId),
    attempts: ATTEMPTS,
    backoff: { type: "exponential", delay: 2_000 },
    // Kept for Bull Board; the run's own record is the Run row.
    removeOnComplete: { age: 24 * 3600, count: 1_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  });
  return { jobId, added: true };
}

/**
 * Per-user fairness: a job's priority is how many runs its user has live (this one included), so a
 * user with many queued runs does not starve another's single question. Within one rank, first in,
 * first out. Once a job is running it keeps its worker slot; `QUEUE_WORKER_CONCURRENCY` slots per worker.
 */
export async function fairRank(kind: RunKind, subjectId: string): Promise<number> {
  const run = await liveRunsOfUser({ kind, subjectId });
  if (!run?.userId) return 1;
  return Math.min(MAX_RANK, Math.max(1, run.live));
}

/** How long a wake-up waits for a parked run's job that was still running when it came. */
const WAKE_TTL_MS = 60_000;
const wakeKey = (jobId: string) => redisKey(`wake:${jobId}`);

/**
 * Wakes a parked run (its job waits, delayed, for its parts: lib/queue/worker.ts): its job goes back in
 * the queue at once. A run whose job is still running when the wake comes is woken as it parks
 * (takeWake), so no wake-up is lost between its last look at its parts and its parking.
 */
export async function wakeRun(kind: RunKind, subjectId: string): Promise<void> {
  const jobId = runJobId(kind, subjectId);
  await redis().set(wakeKey(jobId), "1", "PX", WAKE_TTL_MS);
  const job = await runsQueue().getJob(jobId);
  // A job no longer delayed (taken up meanwhile) cannot be promoted: nothing to do.
  if (job && (await job.getState()) === "delayed") {
    await job.promote().catch(() => {});
    console.log(`[quarry] job ${jobId} (${kind} ${subjectId}) woken by its parts`);
  }
}

/** Clears a run's pending wake-up (its job starts to look at its parts now). */
export async function clearWake(jobId: string): Promise<void> {
  await redis().del(wakeKey(jobId));
}

/** Whether a wake-up came for the run since clearWake, and clears it. */
export async function takeWake(jobId: string): Promise<boolean> {
  return (await redis().getdel(wakeKey(jobId))) !== null;
}

/** Whether queue mode is configured (REDIS_URL set, and QUEUE_RUNS not 0). */
export const queueConfigured = () => getEnv().REDIS_URL !== undefined && getEnv().QUEUE_RUNS;
