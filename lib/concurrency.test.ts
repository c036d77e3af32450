import { test } from "node:test";
import assert from "node:assert/strict";
import { allOrFirstError, backoffDelay, parseRetryAfter, retryAfterOf, Semaphore } from "./concurrency";

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
  // OpenAI's and Azure's retry-after-ms, to the millisecond, before Retry-After.
  assert.equal(retryAfterOf(new Headers({ "retry-after-ms": "350", "retry-after": "1" })), 350);
  assert.equal(retryAfterOf(new Headers({ "retry-after": "1" })), 1000);
  assert.equal(retryAfterOf(new Headers({ "retry-after-ms": "soon" })), undefined);
  assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6000);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter("soon"), undefined);
});

/** Queues one waiter per entry behind a full semaphore, then frees the slot and records the order they ran in. */
async function serveOrder(entries: { name: string; lane?: string; priority?: number }[]): Promise<string[]> {
  const sem = new Semaphore(1);
  const release = await sem.acquire();
  const order: string[] = [];
  const done = entries.map(({ name, lane, priority }) => sem.run(async () => void order.push(name), undefined, { lane, priority }));
  release();
  await Promise.all(done);
  return order;
}

test("within a lane the highest priority goes first, equal priorities in arrival order", async () => {
  const order = await serveOrder([
    { name: "leaf-a", priority: 1 },
    { name: "root", priority: 40 },
    { name: "leaf-b", priority: 1 },
    { name: "mid", priority: 17 },
  ]);
  assert.deepEqual(order, ["root", "mid", "leaf-a", "leaf-b"]);
});

test("lanes take turns, so one busy run cannot starve another", async () => {
  const big = Array.from({ length: 4 }, (_, i) => ({ name: `big${i}`, lane: "big", priority: 50 }));
  const order = await serveOrder([...big, { name: "small0", lane: "small", priority: 1 }, { name: "small1", lane: "small", priority: 1 }]);
  assert.deepEqual(order, ["big0", "small0", "big1", "small1", "big2", "big3"]);
});

test("an aborted waiter leaves its lane; the others are still served", async () => {
  const sem = new Semaphore(1);
  const release = await sem.acquire();
  const controller = new AbortController();
  const order: string[] = [];
  const gone = sem.run(async () => void order.push("gone"), controller.signal, { lane: "a", priority: 9 });
  const kept = sem.run(async () => void order.push("kept"), undefined, { lane: "a", priority: 1 });
  const other = sem.run(async () => void order.push("other"), undefined, { lane: "b" });
  controller.abort(new Error("cancelled"));
  await assert.rejects(gone, /cancelled/);
  assert.equal(sem.waiting, 2);
  release();
  await Promise.all([kept, other]);
  assert.deepEqual(order, ["kept", "other"]);
  assert.equal(sem.inUse, 0);
});

test("allOrFirstError throws the first failure only after every task has settled", async () => {
  let slowDone = false;
  const slow = new Promise<number>((r) => setTimeout(() => { slowDone = true; r(2); }, 40));
  await assert.rejects(allOrFirstError([Promise.reject(new Error("first")), slow]), /first/);
  assert.equal(slowDone, true, "the sibling finished before the error was thrown");
  assert.deepEqual(await allOrFirstError([Promise.resolve(1), Promise.resolve(2)]), [1, 2]);
});
