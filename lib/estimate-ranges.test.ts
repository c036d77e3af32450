import assert from "node:assert/strict";
import { test } from "node:test";
import { estimateResearch } from "./client/estimate";
import { estimateRanges, estimateRangeTable, type EstimateFigures } from "./estimate-ranges";

const figures: EstimateFigures = {
  promptTokensPerCall: 3000,
  completionTokensPerCall: 400,
  reportPromptTokensMax: 60_000,
  reportCompletionTokens: 3000,
  secondsPerCall: 6,
  reportSeconds: 60,
  llmConcurrency: 8,
  analyzeConcurrency: 1,
  price: null,
};

test("tokens run from the calls that always happen to every page analysed, at the per-call figures", () => {
  // depth 2 × breadth 2: 5 calls always (questions, roots, 2 child plannings, report), 35 at most;
  // the verification 2 calls at least, 4 × 28 pages + 1 = 113 at most.
  const r = estimateRanges(2, 2, figures);
  assert.deepEqual(r.verificationCalls, { low: 2, high: 113 });
  assert.equal(r.tokens.low, 7 * 3000 + 6 * 400 + 3000);
  assert.equal(r.tokens.high, (34 + 113) * 3000 + 60_000 + (34 + 113) * 400 + 3000);
  assert.equal(r.cost, null);
});

test("time: the longer of the tree's path and the work over LLM_CONCURRENCY; at most both added", () => {
  // 5 × 5: 83 calls always, 858 at most; 5 levels.
  const e = estimateResearch(5, 5);
  assert.equal(e.minLlmCalls, 83);
  assert.equal(e.maxLlmCalls, 858);
  const r = estimateRanges(5, 5, figures);
  // The verification after the report: 4 × 770 pages + 1 calls at most.
  const v = 4 * 770 + 1;
  assert.equal(r.verificationCalls.high, v);
  // low: path 5 planning calls + report + verification = 96 s; work 81 calls × 6 s ÷ 8 + report + verification ≈ 126.75 s
  assert.equal(r.seconds.low, Math.round((81 * 6) / 8 + 60 + 6));
  // high: 5 levels × (planning + 7 analyses in a row) + a summary + report + 4 verification calls in a row,
  // plus (856 + verification) calls × 6 s ÷ 8
  assert.equal(r.seconds.high, Math.round(5 * 8 * 6 + 6 + 60 + 4 * 6 + ((856 + v) * 6) / 8));
  // More analyses at once within a query shorten the path, not the work.
  const parallel = estimateRanges(5, 5, { ...figures, analyzeConcurrency: 7 });
  assert.equal(parallel.seconds.high, Math.round(5 * 2 * 6 + 6 + 60 + 4 * 6 + ((856 + v) * 6) / 8));
  // One call at a time: the work dominates the low end.
  const serial = estimateRanges(5, 5, { ...figures, llmConcurrency: 1 });
  assert.equal(serial.seconds.low, 81 * 6 + 60 + 6);
});

test("a small tree's low end is its path, not its work", () => {
  // depth 3 × breadth 1: 1 + 1 + 1 queries; 5 calls always; path 3 × 6 + 60 + 6 (verification) = 84 s > 3 × 6 ÷ 8 + 66
  const r = estimateRanges(3, 1, figures);
  assert.equal(r.seconds.low, 84);
});

test("cost is tokens at the configured prices", () => {
  const r = estimateRanges(2, 2, { ...figures, price: { inputPerMTok: 0.4, outputPerMTok: 1.6 } });
  const prompt = { low: 7 * 3000, high: (34 + 113) * 3000 + 60_000 };
  const completion = { low: 6 * 400 + 3000, high: (34 + 113) * 400 + 3000 };
  assert.ok(r.cost);
  assert.ok(Math.abs(r.cost.low - (prompt.low * 0.4 + completion.low * 1.6) / 1e6) < 1e-12);
  assert.ok(Math.abs(r.cost.high - (prompt.high * 0.4 + completion.high * 1.6) / 1e6) < 1e-12);
  assert.ok(r.cost.low < r.cost.high);
});

test("the table holds every choice up to the limits, and ranges grow with the tree", () => {
  const table = estimateRangeTable(5, 10, figures);
  assert.equal(table.length, 5);
  assert.equal(table[0].length, 10);
  assert.deepEqual(table[4][4], estimateRanges(5, 5, figures));
  for (const row of table) for (const r of row) assert.ok(r.tokens.low < r.tokens.high && r.seconds.low <= r.seconds.high);
  assert.ok(table[4][4].tokens.high > table[1][1].tokens.high);
});
