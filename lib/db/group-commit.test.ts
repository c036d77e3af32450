// The group commit every batched write goes through: one write per key and turn, each caller's own result.
import assert from "node:assert/strict";
import { test } from "node:test";
import { GroupCommit } from "./group-commit";

test("the values of one turn go in one write per key, each caller gets its own result, and a value added during a write waits for the next", async () => {
  const writes: [string, number[]][] = [];
  let release!: () => void;
  const group = new GroupCommit<number, string>(async (key, values) => {
    writes.push([key, [...values]]);
    if (writes.length === 1) await new Promise<void>((r) => (release = r));
    return values.map((v) => `${key}:${v * 10}`);
  });
  const first = [group.add("a", 1), group.add("a", 2), group.add("b", 3)];
  await new Promise((r) => setImmediate(r));
  const during = group.add("a", 4);
  const during2 = group.add("a", 5);
  assert.deepEqual(writes, [["a", [1, 2]], ["b", [3]]], "a's first write is in flight; b is not held up by it");
  release();
  assert.deepEqual(await Promise.all([...first, during, during2]), ["a:10", "a:20", "b:30", "a:40", "a:50"]);
  assert.deepEqual(writes, [["a", [1, 2]], ["b", [3]], ["a", [4, 5]]]);
});

test("a failed write rejects its own group's callers only", async () => {
  let fail = true;
  const group = new GroupCommit<number, number>(async (_key, values) => {
    if (fail) {
      fail = false;
      throw new Error("database gone");
    }
    return values;
  });
  const failed = Promise.all([group.add("k", 1), group.add("k", 2)]);
  await assert.rejects(failed, /database gone/);
  assert.equal(await group.add("k", 3), 3);
});

test("scheduled on the next tick, the values added by chained microtasks go in one write, before the loop turns", async () => {
  const writes: number[][] = [];
  let turned = false;
  setImmediate(() => (turned = true));
  const group = new GroupCommit<number, number>(async (_key, values) => {
    writes.push([...values]);
    assert.equal(turned, false, "written before the event loop's next turn");
    return values;
  }, process.nextTick);
  // Each caller a different number of awaits in, as acquires are.
  const callers = [0, 1, 3].map(async (awaits, i) => {
    for (let n = 0; n < awaits; n++) await Promise.resolve();
    return group.add("k", i);
  });
  assert.deepEqual(await Promise.all(callers), [0, 1, 2]);
  assert.deepEqual(writes, [[0, 1, 2]]);
});
