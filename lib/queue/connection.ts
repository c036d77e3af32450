// The queues: one connection each for queueing (web and workers; lib/redis.ts makes every Redis
// connection), and one per worker (BullMQ's blocking reads need their own). Kept on globalThis: the server's start and its route handlers are
// separate bundles with their own copies of this module (docs/architecture.md, Events).
import { Queue } from "bullmq";
import { getEnv } from "../env";
import { newRedisConnection } from "../redis";
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

const globalForQueue = globalThis as unknown as { quarryRunsQueue?: Queue<RunJobData>; quarryNodesQueue?: Queue<TreeNodeJobData> };

/** The runs queue (one per process). */
export function runsQueue(): Queue<RunJobData> {
  return (globalForQueue.quarryRunsQueue ??= new Queue<RunJobData>(RUNS_QUEUE, { connection: newRedisConnection("runs queue"), prefix: getEnv().REDIS_KEY_PREFIX }));
}

/** The tree nodes queue (one per process). */
export function treeNodesQueue(): Queue<TreeNodeJobData> {
  return (globalForQueue.quarryNodesQueue ??= new Queue<TreeNodeJobData>(TREE_NODES_QUEUE, { connection: newRedisConnection("tree nodes queue"), prefix: getEnv().REDIS_KEY_PREFIX }));
}
