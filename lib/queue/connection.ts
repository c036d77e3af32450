// The queues: one connection each for queueing (web and workers; lib/redis.ts makes every Redis
// connection), and one per worker (BullMQ's blocking reads need their own). Kept on globalThis: the server's start and its route handlers are
// separate bundles with their own copies of this module (docs/architecture.md, Events).
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
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

/** The queue of Deep Research tasks (queue mode: a level's tasks spread over the workers). */
export const DR_TASKS_QUEUE = "dr-tasks";

/** What a task job carries: its conversation and task. */
export interface DrTaskJobData {
  conversationId: string;
  taskId: string;
}

/** A task's job id: re-enqueueing a task whose job is waiting or running is a no-op. */
export const drTaskJobId = (taskId: string) => `task-${taskId}`;

const globalForQueue = globalThis as unknown as { quarryQueues?: Map<string, Queue>; quarryQueueConnections?: Map<string, Redis> };

/** A queue by name (one per process, with its own connection). */
function queueNamed<T>(name: string): Queue<T> {
  const queues = (globalForQueue.quarryQueues ??= new Map());
  let queue = queues.get(name);
  if (!queue) {
    const connection = newRedisConnection(`${name} queue`);
    (globalForQueue.quarryQueueConnections ??= new Map()).set(name, connection);
    queue = new Queue(name, { connection, prefix: getEnv().REDIS_KEY_PREFIX });
    queues.set(name, queue);
  }
  return queue as Queue<T>;
}

/** The connection a queue adds its jobs over (BullMQ uses a connection it is given as it is). */
export function queueConnection(name: string): Redis {
  queueNamed(name);
  return globalForQueue.quarryQueueConnections!.get(name)!;
}

/** The runs queue. */
export const runsQueue = () => queueNamed<RunJobData>(RUNS_QUEUE);
/** The tree nodes queue. */
export const treeNodesQueue = () => queueNamed<TreeNodeJobData>(TREE_NODES_QUEUE);
/** The Deep Research tasks queue. */
export const drTasksQueue = () => queueNamed<DrTaskJobData>(DR_TASKS_QUEUE);
