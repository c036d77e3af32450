import { test } from "node:test";
import assert from "node:assert/strict";
import { childCount, levelBreadths, queriesPerLevel, llmPriority, totalQueries } from "./tree";

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

test("LLM priority: shallower first; above the last level, fewest analyses left first; leaves, most left first", () => {
  const shape = { depth: 3, pagesPerQuery: 7 };
  const p = (call: Parameters<typeof llmPriority>[0]) => llmPriority(call, shape);
  const analysis = (depth: number, analysesLeft: number) => p({ kind: "analysis", depth, analysesLeft });
  // Every call of a shallower level outranks every call of a deeper one.
  assert.ok(p({ kind: "root" }) > p({ kind: "children", depth: 1 }));
  assert.ok(analysis(1, 7) > p({ kind: "children", depth: 2 }));
  assert.ok(analysis(2, 7) > analysis(3, 7));
  // Within a level above the last: child generation, then the query closest to done.
  assert.ok(p({ kind: "children", depth: 2 }) > analysis(2, 1));
  assert.ok(analysis(2, 1) > analysis(2, 6));
  // On the last level the leaf with the most left goes first; the report comes last of all.
  assert.ok(analysis(3, 6) > analysis(3, 1));
  assert.ok(analysis(3, 1) > p({ kind: "report" }));
});
