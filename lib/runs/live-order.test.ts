// A followed run's events in number order: an inversion is put right, a gap waits at most holdMs, a
// number given up on that still comes goes on once, late, and nothing goes on twice.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SeqOrder } from "./live-order";

const e = (seq: number) => ({ seq });
const seqs = (order: SeqOrder<{ seq: number }>) => order.take().map((x) => x.seq);

test("an inversion (70, 71, then 65…69) goes out in order, each number once", () => {
  const order = new SeqOrder(64, 1_000, () => 0);
  for (const n of [70, 71]) assert.equal(order.add(e(n)), true);
  assert.deepEqual(seqs(order), [], "70 and 71 wait for 65");
  assert.equal(order.holding, true);
  for (const n of [65, 66]) order.add(e(n));
  assert.deepEqual(seqs(order), [65, 66]);
  for (const n of [68, 67, 69]) order.add(e(n));
  assert.deepEqual(seqs(order), [67, 68, 69, 70, 71]);
  assert.equal(order.holding, false);
  // The same events again (from the bus and from the log): dropped.
  for (const n of [64, 65, 70, 71]) assert.equal(order.add(e(n)), false);
  assert.deepEqual(seqs(order), []);
});

test("a missing number is waited for at most holdMs; arriving later, it goes on once", () => {
  let now = 0;
  const order = new SeqOrder(0, 1_000, () => now);
  order.add(e(1));
  order.add(e(3));
  now = 600;
  order.add(e(4));
  order.expire();
  assert.deepEqual(seqs(order), [1], "3 and 4 wait for 2");
  assert.equal(order.deadline(), 1_000, "the first hold ends holdMs after it began");
  now = 1_000;
  order.expire();
  assert.deepEqual(seqs(order), [3, 4], "2 is given up on");
  assert.equal(order.deadline(), undefined);
  assert.equal(order.add(e(2)), true, "2 comes after all: late, not lost");
  assert.equal(order.add(e(2)), false, "once");
  assert.deepEqual(seqs(order), [2]);
  order.add(e(5));
  assert.deepEqual(seqs(order), [5]);
});

test("settle: a run here has emitted everything up to its number, so a block's jump waits for nothing", () => {
  const order = new SeqOrder(998, 60_000, () => 0);
  order.add(e(999));
  order.add(e(1000));
  order.add(e(2001));
  assert.deepEqual(seqs(order), [999, 1000]);
  order.settle(2001);
  assert.deepEqual(seqs(order), [2001]);
  order.settle(1500);
  order.add(e(2002));
  assert.deepEqual(seqs(order), [2002]);
  assert.equal(order.add(e(5)), false, "numbers at or below the snapshot's never go on");
});

test("numbers announced as never coming are skipped at once, whether they come before or after the gap is reached", () => {
  const order = new SeqOrder(10, 60_000, () => 0);
  order.add(e(11));
  // A process closed with 12…1000 of its block unused; the next owner numbers from 1001.
  order.add(e(1001));
  assert.deepEqual(seqs(order), [11], "1001 waits for 12");
  assert.equal(order.skip(12, 1000), true);
  assert.deepEqual(seqs(order), [1001], "no hold: 12…1000 never come");
  assert.equal(order.holding, false);
  // Announced before the gap is reached: kept until then.
  assert.equal(order.skip(1500, 2000), true);
  for (const n of [2001, 1002]) order.add(e(n));
  assert.deepEqual(seqs(order), [1002]);
  for (let n = 1003; n < 1500; n++) order.add(e(n));
  assert.equal(seqs(order).at(-1), 2001, "on through the announced range");
  assert.equal(order.skip(5, 9), false, "behind the order: nothing to do");
});
