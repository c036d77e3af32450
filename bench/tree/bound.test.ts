// The critical-path bound: hand-computed cases.
import assert from "node:assert/strict";
import { test } from "node:test";
import { computeBound, verificationRounds, type BoundInput, type BoundQuery } from "./bound";

const latencies = { llmMs: 150, searchMs: 80, webMs: 60 };
const limits = { llmConcurrency: 8, searchConcurrency: 4, fetchConcurrency: 8, analyzeConcurrencyPerQuery: 1 };

const q = (id: string, parentId: string | null, analyses: number, generatedChildren = false, pages = analyses): BoundQuery => ({
  id,
  parentId,
  pages,
  analyses,
  generatedChildren,
});

function input(queries: BoundQuery[], extra: Partial<BoundInput> = {}): BoundInput {
  return { latencies, limits, queries, llmCalls: 0, pagesFetched: 0, reportSteps: 1, ...extra };
}

test("a single query: root generation, search, fetch, analyses in sequence, report", () => {
  const bound = computeBound(input([q("a", null, 7)]));
  assert.equal(bound.criticalPathMs, 150 + 80 + 60 + 7 * 150 + 150);
  assert.equal(bound.limitedBy, "critical path");
  assert.deepEqual(bound.criticalChain, ["a"]);
});

test("the longest branch sets the path, child generation included", () => {
  const tree = [q("a", null, 7, true), q("a1", "a", 3), q("a2", "a", 6), q("b", null, 2, true), q("b1", "b", 7)];
  const bound = computeBound(input(tree, { reportSteps: 2 }));
  const a = 80 + 60 + 7 * 150 + 150;
  const a2 = 80 + 60 + 6 * 150;
  assert.equal(bound.criticalPathMs, 150 + a + a2 + 2 * 150);
  assert.deepEqual(bound.criticalChain, ["a", "a2"]);
});

test("analyses run in rounds of ANALYZE_CONCURRENCY_PER_QUERY; a query with no pages waits for no fetch", () => {
  const parallel = { ...limits, analyzeConcurrencyPerQuery: 3 };
  const bound = computeBound({ ...input([q("a", null, 7), q("b", null, 0, false, 0)]), limits: parallel });
  assert.equal(bound.criticalPathMs, 150 + 80 + 60 + 3 * 150 + 150);
});

test("LLM throughput wins when the work outweighs the path", () => {
  const bound = computeBound(input([q("a", null, 7)], { llmCalls: 880 }));
  assert.equal(bound.llmThroughputMs, (880 * 150) / 8);
  assert.equal(bound.boundMs, bound.llmThroughputMs);
  assert.equal(bound.limitedBy, "LLM throughput");
});

test("search and fetch throughput are bounds too", () => {
  const many = Array.from({ length: 200 }, (_, i) => q(`q${i}`, null, 0, false, 0));
  const bound = computeBound(input(many, { pagesFetched: 10 }));
  assert.equal(bound.searchThroughputMs, (200 * 80) / 4);
  assert.equal(bound.limitedBy, "search throughput");
  assert.equal(computeBound(input([], { pagesFetched: 1000 })).limitedBy, "fetch throughput");
});

test("the report's verification rounds follow the report on the path", () => {
  const bound = computeBound(input([q("a", null, 7)], { verificationRounds: 3 }));
  assert.equal(bound.criticalPathMs, 150 + 80 + 60 + 7 * 150 + 150 + 3 * 150);
});

test("verification rounds: the longest chain of checks after the last report call, each begun once the one before ended", () => {
  const call = (at: number, endedAt: number | null, agent: string) => ({ at, endedAt, agent });
  // Out of order on purpose: the calls are taken by their times.
  const log = [
    call(1577, 1728, "citation-verifier"), call(1000, 1150, "website-analyzer"), call(1348, 1500, "report-writer"), call(1580, 1731, "uncited-claim-finder"),
    call(1578, 1729, "citation-verifier"), call(1740, 1891, "citation-verifier"), call(1741, 1893, "citation-verifier"), call(1900, 2050, "citation-verifier"),
  ];
  // Pass 1 side by side, the skipped sentences asked again, pass 2 on the rewrites.
  assert.equal(verificationRounds(log), 3);
  assert.equal(verificationRounds(log.slice(0, 5)), 1);
  // A call that began before the one it would follow had ended ran beside it: not a round of its own.
  assert.equal(verificationRounds([call(0, 100, "report-writer"), call(110, 260, "citation-verifier"), call(250, 400, "citation-verifier")]), 1);
  // Before the report (a deep research's trees, say) nothing counts; no report, no rounds.
  assert.equal(verificationRounds([call(1, 150, "citation-verifier"), call(2, 150, "report-writer")]), 0);
  assert.equal(verificationRounds([call(1, 150, "citation-verifier")]), 0);
  // Checks of the report's parts made while it was written overlap it: only those begun after its end are rounds.
  assert.equal(verificationRounds([call(0, 1000, "report-writer"), call(300, 450, "citation-verifier"), call(600, 750, "citation-verifier"), call(1000, 1150, "uncited-claim-finder")]), 1);
});
