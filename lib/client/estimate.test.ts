import { test } from "node:test";
import assert from "node:assert/strict";
import { descendantsBelow, estimateResearch, expectedQueryTotal, levelBreadths, levelSizes } from "./estimate";

test("level breadths halve, rounding up", () => {
  assert.deepEqual(levelBreadths(5, 5), [5, 3, 2, 1, 1]);
  assert.deepEqual(levelBreadths(3, 4), [4, 2, 1]);
});

test("depth 5 breadth 5 is 5+15+30+30+30 = 110 queries", () => {
  assert.deepEqual(levelSizes(5, 5), [5, 15, 30, 30, 30]);
  const e = estimateResearch(5, 5);
  assert.equal(e.queries, 110);
  assert.equal(e.parentQueries, 80);
  assert.equal(e.maxPages, 770);
  // questions + root queries + 80 child generations + report
  assert.equal(e.minLlmCalls, 83);
  // + one analysis per page + a summary per root branch (for findings too large for one call)
  assert.equal(e.maxLlmCalls, 83 + 770 + 5);
  // every structured call repaired twice; every planning repaired 3 times and tried 3 times
  assert.equal(e.worstLlmCalls, 3 + 81 * 36 + 770 * 3 + 1 + 5);
});

test("depth 2 breadth 2 is 2 roots with one child each", () => {
  const e = estimateResearch(2, 2);
  assert.deepEqual(e.levels, [2, 2]);
  assert.equal(e.queries, 4);
  assert.equal(e.minLlmCalls, 1 + 1 + 2 + 1);
});

test("depth 1 has no child-generation calls", () => {
  const e = estimateResearch(1, 3);
  assert.equal(e.queries, 3);
  assert.equal(e.parentQueries, 0);
  assert.equal(e.minLlmCalls, 3);
});

test("a failed query removes its unborn subtree from the expected total", () => {
  assert.equal(descendantsBelow(1, 5, 5), 3 + 6 + 6 + 6);
  assert.equal(descendantsBelow(5, 5, 5), 0);
  const queries = [
    { depth: 1, status: "failed" as const },
    { depth: 1, status: "completed" as const },
  ];
  assert.equal(expectedQueryTotal(5, 5, queries), 110 - 21);
  assert.equal(expectedQueryTotal(null, null, queries), 2);
});
