// The group commit of additive counters: increments of one event-loop turn go in one write, those that
// arrive while a row's write is in flight in its next write, together; no caller resolves before a
// write with its increment has committed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CombinedCounters } from "./combined-counters";

function slowStore() {
  const writes: { key: string; delta: Record<"calls" | "tokens", number> }[] = [];
  const gates: (() => void)[] = [];
  let fail: Error | null = null;
  const counters = new CombinedCounters(["calls", "tokens"] as const, async (key, delta) => {
    await new Promise<void>((r) => gates.push(r));
    if (fail) {
      const error = fail;
      fail = null;
      throw error;
    }
    writes.push({ key, delta: { ...delta } });
  });
  const openGate = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { counters, writes, openGate, failNext: (e: Error) => (fail = e) };
}

test("increments of one event-loop turn go in one write, those arriving during it in one next write; each resolves after the write with it", async () => {
  const { counters, writes, openGate } = slowStore();
  const resolved: string[] = [];
  // One turn: a wave of calls begins together.
  const first = counters.add("r1", { calls: 1 }).then(() => resolved.push("first"));
  const second = counters.add("r1", { calls: 1, tokens: 10 }).then(() => resolved.push("second"));
  // Another row is not held up by r1's write.
  const other = counters.add("r2", { tokens: 7 }).then(() => resolved.push("other"));
  await new Promise((r) => setImmediate(r));
  // r1's write is in flight: these wait for the next.
  const third = counters.add("r1", { calls: -1, tokens: 5 }).then(() => resolved.push("third"));
  const fourth = counters.add("r1", { tokens: 1 }).then(() => resolved.push("fourth"));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(resolved, [], "nothing resolves before its write commits");

  await openGate(); // r1's first write: the first turn's two increments
  assert.deepEqual(resolved, ["first", "second"]);
  await openGate(); // r2's
  await openGate(); // r1's second: the two that waited, combined
  await Promise.all([first, second, third, fourth, other]);
  assert.deepEqual(writes, [
    { key: "r1", delta: { calls: 2, tokens: 10 } },
    { key: "r2", delta: { calls: 0, tokens: 7 } },
    { key: "r1", delta: { calls: -1, tokens: 6 } },
  ]);
  assert.deepEqual(resolved, ["first", "second", "other", "third", "fourth"]);
});

test("a failed write rejects its own batch's callers only; the next batch is written", async () => {
  const { counters, writes, openGate, failNext } = slowStore();
  const first = counters.add("r", { calls: 1 }).then(() => null, (error: unknown) => error as Error);
  await new Promise((r) => setImmediate(r));
  const second = counters.add("r", { calls: 2 });
  failNext(new Error("database gone"));
  await openGate();
  assert.match((await first)?.message ?? "resolved", /database gone/);
  await openGate();
  await second;
  assert.deepEqual(writes, [{ key: "r", delta: { calls: 2, tokens: 0 } }]);
  // Idle again: the next increment is written in the next turn, alone.
  const third = counters.add("r", { tokens: 1 });
  await openGate();
  await third;
  assert.deepEqual(writes.at(-1), { key: "r", delta: { calls: 0, tokens: 1 } });
});
