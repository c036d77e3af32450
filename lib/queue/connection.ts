// Redis connections for the queue: one for queueing (web and workers), one per worker (BullMQ's
// blocking reads need their own). Kept on globalThis: the server's start and its route handlers are
// separate bundles with their own copies of this module (docs/architecture.md, Events).
import IORedis from "ioredis";
import { Queue } from "bullmq";
import { getEnv } from "../env";
import type { RunKind } from "../db/runs";

/** The queue every run's job goes to. */
export const RUNS_QUEUE = "runs";

/** What a job carries: only the run's key; everything else is read from the database when it runs. */
export interface RunJobData {
  kind: RunKind;
  subjectId: string;
}

/** A run's job id: one job per run at a time (a resumed run reuses it once the old job ended). */
export const runJobId = (kind: RunKind, subjectId: string) => `${kind}-${subjectId}`;

/** The queue of tree query nodes (queue mode: a tree research's nodes spread over the workers). */
export const TREE_NODES_QUEUE = "tree-nodes";

/** What a node job carries: its research and query. */
export interface TreeNodeJobData {
  researchId: string;
  queryId: string;
}

/** A node's job id: re-enqueueing a node whose job is waiting or running is a no-op. */
export const nodeJobId = (queryId: string) => `node-${queryId}`;

/** A new connection to REDIS_URL (BullMQ requires `maxRetriesPerRequest: null` for workers). */
export function redisConnection(): IORedis {
  const url = getEnv().REDIS_URL;
  if (!url) throw new Error("REDIS_URL is not set: queue mode needs Redis");
  return new IORedis(url, { maxRetriesPerRequest: null });
}

const globalForQueue = globalThis as unknown as { quarryRunsQueue?: Queue<RunJobData>; quarryNodesQueue?: Queue<TreeNodeJobData> };

/** The runs queue (one per process). */
export function runsQueue(): Queue<RunJobData> {
  return (globalForQueue.quarryRunsQueue ??= new Queue<RunJobData>(RUNS_QUEUE, { connection: redisConnection(), prefix: getEnv().REDIS_KEY_PREFIX }));
}

/** The tree nodes queue (one per process). */
export function treeNodesQueue(): Queue<TreeNodeJobData> {
  return (globalForQueue.quarryNodesQueue ??= new Queue<TreeNodeJobData>(TREE_NODES_QUEUE, { connection: redisConnection(), prefix: getEnv().REDIS_KEY_PREFIX }));
}
