import { test } from "node:test";
import assert from "node:assert/strict";
import { childCount, levelBreadths, queriesPerLevel, totalQueries } from "./tree";

test("breadth 5 halves per level, rounding up", () => {
  assert.deepEqual(levelBreadths(5, 5), [5, 3, 2, 1, 1]);
  assert.equal(childCount(5), 3);
  assert.equal(childCount(1), 1);
});

test("depth 5 breadth 5 is 5+15+30+30+30 = 110 queries", () => {
  assert.deepEqual(queriesPerLevel(5, 5), [5, 15, 30, 30, 30]);
  assert.equal(totalQueries(5, 5), 110);
});

test("counts for other shapes", () => {
  assert.deepEqual(queriesPerLevel(2, 3), [3, 6]);
  assert.deepEqual(queriesPerLevel(3, 4), [4, 8, 8]);
  assert.deepEqual(queriesPerLevel(1, 7), [7]);
  assert.deepEqual(queriesPerLevel(4, 1), [1, 1, 1, 1]);
});
