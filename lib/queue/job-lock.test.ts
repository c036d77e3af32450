// A job whose lock is lost makes no further LLM call: its work's signal aborts when a renewal fails
// (the lock was taken) and when the worker finds itself past the lock's deadline (it was stopped).
// The "LLM calls" here are counted on a fake that refuses an aborted signal, as the provider's fetch
// does; each is preceded by a round trip to Redis, as a real one is by its usage `begin` write.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { redisOrSkip, testRedisPrefix, TEST_REDIS_URL } from "../../test/helpers/redis";
import { LockLostError, watchJobLock } from "./job-lock";
import { assertOwned, withOwnership } from "../ownership";

const skip = await redisOrSkip();
const prefix = testRedisPrefix("job-lock");
const LOCK_MS = 1_000;
const connections: Redis[] = [];
const connect = () => {
  const c = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  connections.push(c);
  return c;
};

after(async () => {
  if (skip) return;
  const queue = new Queue("locks", { connection: connect(), prefix });
  await queue.obliterate({ force: true });
  await queue.close();
  for (const c of connections) c.disconnect();
});

/** Blocks this process as SIGSTOP would: no timer, no I/O, for `ms`. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * A worker whose job makes fake LLM calls until its signal aborts; `calls` records when each was made
 * (performance.now(): a call made just before the loss, in the same millisecond, is not counted after it).
 */
async function runJob(name: string, meanwhile: (job: Job, token: string) => Promise<void>) {
  const begin = connect();
  const calls: number[] = [];
  let lostAt: number | undefined;
  let ended: (why: unknown) => void = () => {};
  const done = new Promise((resolve) => (ended = resolve));
  const worker = new Worker("locks", async (job, token) => {
    const lock = watchJobLock(worker, job, LOCK_MS);
    lock.signal.addEventListener("abort", () => (lostAt = performance.now()));
    try {
      void meanwhile(job, token!);
      // As the part worker runs its work (lib/queue/worker.ts), each call asking as lib/ai/call.ts does.
      await withOwnership(() => lock.assertHeld(), async () => {
        for (;;) {
          await begin.ping();
          assertOwned(lock.signal);
          calls.push(performance.now());
          await new Promise((r) => setTimeout(r, 20));
        }
      });
    } catch (error) {
      ended(error);
      throw error;
    } finally {
      lock.dispose();
    }
  }, { connection: connect(), prefix, lockDuration: LOCK_MS, stalledInterval: LOCK_MS / 4, name });
  worker.on("error", () => {});
  const queue = new Queue("locks", { connection: connect(), prefix });
  await queue.add("job", {}, { jobId: name });
  const why = await done;
  await worker.close(true);
  await queue.close();
  return { why, calls, lostAt: lostAt! };
}

test("a job whose lock another worker took makes no LLM call after its next renewal", { skip }, async () => {
  const commands = connect();
  let takenAt = 0;
  const { why, calls, lostAt } = await runJob("job-taken", async (job) => {
    await new Promise((r) => setTimeout(r, 300));
    takenAt = performance.now();
    await commands.set(`${prefix}:locks:${job.id}:lock`, "another worker's token", "PX", 60_000);
  });
  assert.ok(why instanceof LockLostError, `stopped by its lock: ${String(why)}`);
  assert.ok(calls.some((t) => t < takenAt), "it made calls while it held the lock");
  assert.ok(lostAt - takenAt <= LOCK_MS, `noticed within a renewal (${lostAt - takenAt} ms)`);
  assert.deepEqual(calls.filter((t) => t >= lostAt), [], "no call once the lock was lost");
});

test("a worker stopped past its lock makes no further LLM call when it resumes", { skip }, async () => {
  let resumedAt = 0;
  const { why, calls } = await runJob("job-stalled", async () => {
    await new Promise((r) => setTimeout(r, 300));
    // A call's begin is in flight: its reply is the first thing the worker sees when it resumes.
    stall(LOCK_MS * 1.5);
    resumedAt = performance.now();
  });
  assert.ok(why instanceof LockLostError, `stopped by its lock: ${String(why)}`);
  assert.ok(calls.length > 0, "it made calls before the stall");
  assert.deepEqual(calls.filter((t) => t >= resumedAt), [], "no call after the stall");
});
