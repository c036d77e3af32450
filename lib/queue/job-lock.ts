// A job's lock, as its work sees it: a signal that aborts the moment the job may no longer be this
// worker's. BullMQ renews a job's lock in the background but only reports a failed renewal, and keeps
// running the processor; a worker stopped (SIGSTOP, a long pause) past its lock woke up to run its job
// to the end while another worker ran it again (issue 52). So the work's signal aborts:
// - when a renewal fails (the lock was taken, or expired: BullMQ renews only a lock it still holds);
// - when the lock's deadline passes without a renewal seen: the lock has expired in Redis by then, so
//   the job is certainly lost (no false alarm), and a stalled worker notices it at its first timer,
//   before the database round trip that precedes every LLM call (its usage `begin`) has come back;
// - and, since a worker resumed from a stop runs the I/O that completed meanwhile before any timer, when
//   an LLM call about to go out asks (assertHeld, through lib/ownership.ts), with a fresh clock.
import type { Job, Worker } from "bullmq";
import { OwnershipLostError } from "../errors";

export interface JobLock {
  /** Aborted once the lock is lost; every LLM call and write of the job's work takes it. */
  readonly signal: AbortSignal;
  /** Whether the lock is still this worker's now (checks its deadline first); throws nothing. */
  held(): boolean;
  /** Throws the LockLostError once the lock is no longer this worker's (checks its deadline first). */
  assertHeld(): void;
  dispose(): void;
}

/** The error a job's work stops with when its lock is lost. */
export class LockLostError extends OwnershipLostError {
  constructor(jobId: string, why: string) {
    super(`Job ${jobId} lost its lock (${why}): another worker runs it now`);
    this.name = "LockLostError";
  }
}

/**
 * Watches `job`'s lock, held for `lockMs` from each renewal by `worker`. The lock was set when the job
 * was taken (`processedOn`, the worker's time as it asked for the job: never later than Redis set it).
 */
export function watchJobLock(worker: Worker, job: Job, lockMs: number, now: () => number = Date.now): JobLock {
  const jobId = job.id ?? "?";
  const controller = new AbortController();
  let renewedAt = job.processedOn ?? now();
  const lose = (why: string) => {
    if (!controller.signal.aborted) {
      console.warn(`[quarry] worker ${worker.opts.name ?? worker.name}: job ${jobId} lost its lock (${why}): it stops here`);
      controller.abort(new LockLostError(jobId, why));
    }
  };
  const expired = () => now() - renewedAt >= lockMs;
  const onRenewed = ({ jobIds }: { jobIds: string[] }) => {
    if (jobIds.includes(jobId) && !controller.signal.aborted) {
      renewedAt = now();
      arm();
    }
  };
  const onFailed = (jobIds: string[]) => jobIds.includes(jobId) && lose("its renewal failed");
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One timer at the deadline, moved on by each renewal; it fires late, at once, after a stall.
  function arm() {
    clearTimeout(timer);
    timer = setTimeout(() => (expired() ? lose(`not renewed for ${now() - renewedAt} ms`) : arm()), Math.max(0, renewedAt + lockMs - now()));
    timer.unref();
  }
  worker.on("locksRenewed", onRenewed);
  worker.on("lockRenewalFailed", onFailed);
  arm();
  return {
    signal: controller.signal,
    held() {
      if (expired()) lose(`not renewed for ${now() - renewedAt} ms`);
      return !controller.signal.aborted;
    },
    assertHeld() {
      if (!this.held()) throw controller.signal.reason;
    },
    dispose() {
      clearTimeout(timer);
      worker.off("locksRenewed", onRenewed);
      worker.off("lockRenewalFailed", onFailed);
    },
  };
}
