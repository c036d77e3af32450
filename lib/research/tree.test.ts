import { test } from "node:test";
import assert from "node:assert/strict";
import { childCount, levelBreadths, queriesPerLevel, remainingSteps, totalQueries } from "./tree";

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

test("remaining steps: the calls that unlock the most work rank highest", () => {
  const shape = { depth: 3, pagesPerQuery: 7, analyzeConcurrency: 1 };
  // Depth 3: below the root, levels 1 and 2 each take 7 analyses + child generation, level 3 takes 7.
  assert.equal(remainingSteps({ kind: "root" }, shape), 1 + 8 + 8 + 7);
  assert.equal(remainingSteps({ kind: "children", depth: 1 }, shape), 1 + 8 + 7);
  assert.equal(remainingSteps({ kind: "analysis", depth: 1, analysesLeft: 7 }, shape), 7 + 1 + 8 + 7);
  assert.equal(remainingSteps({ kind: "analysis", depth: 3, analysesLeft: 2 }, shape), 2);
  assert.equal(remainingSteps({ kind: "report" }, shape), 1);
  // A leaf with more analyses left goes before one nearly done; any shallower call before both.
  const leaf = (left: number) => remainingSteps({ kind: "analysis", depth: 3, analysesLeft: left }, shape);
  assert.ok(leaf(6) > leaf(1));
  assert.ok(remainingSteps({ kind: "children", depth: 2 }, shape) > leaf(7));
  // Analyses in parallel shorten the path.
  assert.equal(remainingSteps({ kind: "analysis", depth: 3, analysesLeft: 7 }, { ...shape, analyzeConcurrency: 3 }), 3);
});
