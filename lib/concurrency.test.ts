import { test } from "node:test";
import assert from "node:assert/strict";
import { backoffDelay, parseRetryAfter, Semaphore } from "./concurrency";

test("a semaphore never runs more than its limit at once", async () => {
  const sem = new Semaphore(3);
  let running = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: 20 }, () =>
      sem.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      }),
    ),
  );
  assert.equal(peak, 3);
  assert.equal(sem.inUse, 0);
});

test("an aborted waiter leaves the queue and does not take a slot", async () => {
  const sem = new Semaphore(1);
  const release = await sem.acquire();
  const controller = new AbortController();
  const waiting = sem.acquire(controller.signal);
  controller.abort(new Error("stop"));
  await assert.rejects(waiting, /stop/);
  assert.equal(sem.waiting, 0);
  release();
  assert.equal(sem.inUse, 0);
});

test("backoff grows exponentially with jitter and is capped", () => {
  assert.equal(backoffDelay(0, 500, 20_000, () => 0), 250);
  assert.equal(backoffDelay(0, 500, 20_000, () => 1), 500);
  assert.equal(backoffDelay(3, 500, 20_000, () => 1), 4000);
  assert.equal(backoffDelay(10, 500, 20_000, () => 1), 20_000);
});

test("Retry-After in seconds or as an HTTP date", () => {
  assert.equal(parseRetryAfter("2"), 2000);
  assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6000);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter("soon"), undefined);
});
