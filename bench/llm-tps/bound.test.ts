// The llm-tps row's bound: hand-computed cases.
import assert from "node:assert/strict";
import { test } from "node:test";
import { computeTpsBound, type TpsCall } from "./bound";

const latencies = { llmMs: 150, searchMs: 80, webMs: 60 };
const limits = { llmConcurrency: 8, searchConcurrency: 4, fetchConcurrency: 8, analyzeConcurrencyPerQuery: 2 };
const call = (agent: string, completionTokens: number, at = 0, endedAt: number | null = null): TpsCall => ({ agent, completionTokens, at, endedAt });

test("each call takes its latency and its tokens at the rate; the chain, the report and the rounds after it add up", () => {
  const calls = [
    call("query-generator", 40), // 150 + 1000 ms: the root's planning
    call("query-generator", 80), // 150 + 2000: a child's, longer (the shortest of the agent's is taken)
    call("website-analyzer", 120), // 150 + 3000
    call("website-analyzer", 200),
    call("report-writer", 400, 10_000, 20_150), // 10 s of generation
    call("citation-verifier", 20), // 150 + 500
    call("uncited-claim-finder", 60),
  ];
  const queries = [
    { id: "a", parentId: null, pages: 3, analyses: 3, generatedChildren: true },
    { id: "a1", parentId: "a", pages: 1, analyses: 1, generatedChildren: false },
  ];
  const bound = computeTpsBound({ latencies, limits, tokensPerSecond: 40, queries, calls, verificationRounds: 2 });
  const planning = 150 + 1_000;
  const analysis = 150 + 3_000;
  // a: search, page, 2 rounds of analyses (3 at 2 at once), its children's planning; a1: search, page, 1 analysis.
  const chain = 80 + 60 + 2 * analysis + planning + (80 + 60 + analysis);
  assert.equal(bound.firstTokenMs, planning + chain + 150);
  assert.equal(bound.reportGenerationMs, 10_000);
  assert.equal(bound.endMs, planning + chain + 150 + 10_000 + 2 * (150 + 500));
  assert.equal(bound.firstTokenFrom, "critical path");
});

test("the LLM's throughput bounds both instants when the calls outweigh the path", () => {
  const calls = [call("query-generator", 0), ...Array.from({ length: 80 }, () => call("website-analyzer", 400)), call("report-writer", 40, 1, 2)];
  const bound = computeTpsBound({ latencies, limits, tokensPerSecond: 40, queries: [{ id: "a", parentId: null, pages: 1, analyses: 1, generatedChildren: false }], calls, verificationRounds: 0 });
  assert.equal(bound.firstTokenFrom, "LLM throughput");
  assert.equal(bound.firstTokenMs, (150 + 80 * (150 + 10_000)) / 8);
  assert.equal(bound.endMs, (150 + 80 * (150 + 10_000) + 150 + 1_000) / 8);
});
