// A queue worker: takes run jobs from Redis and executes them through the run registry, under the
// Run row's lease (claim, heartbeat, takeover), exactly as a web process executes them in the
// embedded mode. BullMQ renews a job's lock while the run executes; a worker that dies stops renewing
// it, and after QUEUE_LOCK_MS another worker's stalled check puts the job back in the queue, where it
// waits (runJob) until the dead worker's run lease expires and then resumes the run from the database.
// A run executes phase by phase where its engine has phases (a tree's exploration, then its report;
// Deep Research's plan, tasks, hypothesis, reflection…): after each, its job goes back in the queue,
// so the next phase runs on whichever worker is free, and no run holds a worker slot from start to end.
// A run that waits for its parts (a tree's query nodes) parks: its job is delayed, holding no slot, until
// a part wakes it (lib/queue/enqueue.ts, wakeRun) or PART_PARK_MS pass, and then looks at its parts again.
import { DelayedError, WaitingError, Worker, type WorkerOptions } from "bullmq";
import { getEnv } from "../env";
import type { RunRegistry } from "../runs/registry";
import { runTreeNode } from "../explore/distributed";
import { DR_TASKS_QUEUE, RUNS_QUEUE, TREE_NODES_QUEUE, type DrTaskJobData, type RunJobData, type TreeNodeJobData } from "./connection";
import { newRedisConnection } from "../redis";
import { bullTreeNodes } from "./part-jobs";
import { runDrTask } from "../deep-research/distributed";
import { PART_PARK_MS } from "../runs/part-jobs";
import { clearWake, takeWake } from "./enqueue";
import { watchJobLock } from "./job-lock";
import { withOwnership } from "../ownership";

/** Stalls a job may have (its worker died) before it fails; the sweep queues a failed job's run again anyway. */
const MAX_STALLS = 5;

/**
 * Both workers' settings: their slots, and locks that a dead worker's jobs outlive by at most
 * QUEUE_LOCK_MS, looked for every quarter of it: another worker runs them again within 1.25 ×
 * QUEUE_LOCK_MS. A job taken just before its worker died holds a whole lock; checked every half, one
 * whose lock ran out just after a look waited most of another half (bench/README.md, "recovery"). A
 * look is one script per queue for the whole fleet (the other workers skip theirs meanwhile), so
 * looking more often costs little.
 */
function workerOptions(owner: string, concurrency: number): WorkerOptions {
  const env = getEnv();
  return {
    connection: newRedisConnection(`worker ${owner}`),
    prefix: env.REDIS_KEY_PREFIX,
    name: owner,
    concurrency,
    lockDuration: env.QUEUE_LOCK_MS,
    stalledInterval: Math.ceil(env.QUEUE_LOCK_MS / 4),
    maxStalledCount: MAX_STALLS,
  };
}

export function startRunWorker(registry: RunRegistry): Worker<RunJobData> {
  const worker = new Worker<RunJobData>(
    RUNS_QUEUE,
    async (job, token) => {
      const { kind, subjectId } = job.data;
      console.log(`[quarry] worker ${registry.owner}: job ${job.id} (${kind} ${subjectId}) started, attempt ${job.attemptsMade + 1}`);
      // A wake-up from before this look at the run's parts is taken into account by it.
      await clearWake(job.id!);
      const how = await registry.runJob(kind, subjectId);
      if (how === "parked") {
        // Its parts are at work: the job waits, delayed and holding no slot, until one wakes it.
        console.log(`[quarry] worker ${registry.owner}: job ${job.id} (${kind} ${subjectId}) parked until its parts wake it`);
        await job.moveToDelayed(Date.now() + PART_PARK_MS, token);
        // A part that ended while this job was looking found it running, not delayed: wake it now.
        if (await takeWake(job.id!)) {
          await job.promote().catch(() => {});
          console.log(`[quarry] job ${job.id} (${kind} ${subjectId}) woken by its parts`);
        }
        throw new DelayedError();
      }
      if (how === "handed-off") {
        // One phase of the run is done: the job goes back in the queue (its priority kept), for
        // whichever worker has a slot first; the run waits for it, owned by nobody, in the database.
        console.log(`[quarry] worker ${registry.owner}: job ${job.id} (${kind} ${subjectId}) ran a phase here and goes back in the queue`);
        await job.moveToWait(token);
        throw new WaitingError();
      }
      console.log(`[quarry] worker ${registry.owner}: job ${job.id} (${kind} ${subjectId}) ${how === "executed" ? "executed here" : "ended elsewhere"}`);
      return how;
    },
    workerOptions(registry.owner, getEnv().QUEUE_WORKER_CONCURRENCY),
  );
  worker.on("failed", (job, error) => console.error(`[quarry] job ${job?.id ?? "?"} failed (attempt ${job?.attemptsMade ?? "?"}):`, error.message));
  worker.on("error", (error) => console.error("[quarry] queue worker error:", error.message));
  return worker;
}

/**
 * A worker of run parts beside the run worker (its own QUEUE_PART_CONCURRENCY slots: a run's job waits
 * for its parts, so parts must never wait for a run slot): a tree's query nodes, a Deep Research level's tasks. A dead
 * worker's part job is taken by another after QUEUE_LOCK_MS and resumes the part from the database.
 */
function startPartWorker<T>(queue: string, owner: string, part: string, of: (data: T) => string, work: (data: T, lock: AbortSignal) => Promise<string>): Worker<T> {
  const worker: Worker<T> = new Worker<T>(
    queue,
    async (job) => {
      console.log(`[quarry] worker ${owner}: ${part} job ${job.id} (${of(job.data)}) started, attempt ${job.attemptsMade + 1}`);
      // The part stops before its next LLM call or write once another worker may have its job (job-lock.ts).
      const lock = watchJobLock(worker as Worker, job, getEnv().QUEUE_LOCK_MS);
      try {
        // Each LLM call of the part asks the lock with a fresh clock before it goes out (lib/ownership.ts).
        const how = await withOwnership(() => lock.assertHeld(), () => work(job.data, lock.signal));
        // A part that stopped for its lost lock has not ended: the worker that took its job runs it.
        lock.signal.throwIfAborted();
        console.log(`[quarry] worker ${owner}: ${part} job ${job.id} (${of(job.data)}) ${how}`);
        return how;
      } finally {
        lock.dispose();
      }
    },
    workerOptions(owner, getEnv().QUEUE_PART_CONCURRENCY),
  );
  worker.on("failed", (job, error) => console.error(`[quarry] ${queue} job ${job?.id ?? "?"} failed (attempt ${job?.attemptsMade ?? "?"}):`, error.message));
  worker.on("error", (error) => console.error(`[quarry] ${queue} worker error:`, error.message));
  return worker;
}

export const startTreeNodeWorker = (owner: string) =>
  startPartWorker<TreeNodeJobData>(TREE_NODES_QUEUE, owner, "node", (d) => `research ${d.researchId}`, (d, lock) => runTreeNode({ ...d, nodes: bullTreeNodes, lock }));

export const startDrTaskWorker = (owner: string) =>
  startPartWorker<DrTaskJobData>(DR_TASKS_QUEUE, owner, "task", (d) => `conversation ${d.conversationId}`, (d, lock) => runDrTask({ ...d, lock }));
