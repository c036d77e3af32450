// A worker's slots: runs take QUEUE_WORKER_CONCURRENCY at once, parts of runs (a tree's query nodes, a
// Deep Research level's tasks) QUEUE_PART_CONCURRENCY, in workers of their own. A part mostly waits on
// the shared limits; with the runs' few slots a big tree's levels queued for them (bench/README.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { redisOrSkip, testRedisPrefix, TEST_REDIS_URL } from "../../test/helpers/redis";
import type { RunRegistry } from "../runs/registry";

const skip = await redisOrSkip();
process.env.REDIS_URL = TEST_REDIS_URL;
process.env.REDIS_KEY_PREFIX = testRedisPrefix("worker-slots");
process.env.QUEUE_WORKER_CONCURRENCY = "2";
process.env.QUEUE_PART_CONCURRENCY = "5";
process.env.QUEUE_LOCK_MS = "4000";
const { startDrTaskWorker, startRunWorker, startTreeNodeWorker } = await import("./worker");

test("a worker runs QUEUE_WORKER_CONCURRENCY runs and QUEUE_PART_CONCURRENCY parts at once, and looks for a dead worker's jobs every quarter of QUEUE_LOCK_MS", { skip }, async () => {
  const runs = startRunWorker({ owner: "slots-test" } as RunRegistry);
  const parts = [startTreeNodeWorker("slots-test"), startDrTaskWorker("slots-test")];
  try {
    await Promise.all([runs, ...parts].map((w) => w.waitUntilReady()));
    assert.equal(runs.concurrency, 2);
    for (const w of parts) assert.equal(w.concurrency, 5, w.name);
    // A dead worker's jobs are looked for every quarter of their lock (run again within 1.25 × QUEUE_LOCK_MS).
    for (const w of [runs, ...parts]) assert.deepEqual([w.opts.lockDuration, w.opts.stalledInterval], [4000, 1000], w.name);
  } finally {
    await Promise.all([runs, ...parts].map((w) => w.close()));
    // BullMQ leaves the connection it was given open.
    for (const w of [runs, ...parts]) (w.opts.connection as { disconnect(): void }).disconnect();
  }
});
