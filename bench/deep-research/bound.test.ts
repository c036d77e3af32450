import assert from "node:assert/strict";
import { test } from "node:test";
import { iterationBoundMs, iterationLoopBoundMs } from "./bound";

const latencies = { llmMs: 100, searchMs: 50, webMs: 20 };
const limits = { llmConcurrency: 8, searchConcurrency: 4, fetchConcurrency: 8, analyzeConcurrencyPerQuery: 1 };

test("an iteration's bound: its sequential steps plus the slowest task", () => {
  const q = (id: string, parentId: string | null, analyses: number, generatedChildren = false) => ({ id, parentId, pages: analyses, analyses, generatedChildren });
  const shallow = { queries: [q("a", null, 1)], llmCalls: 2, pagesFetched: 1, summarised: true, measuredMs: 1500 };
  const deep = { queries: [q("b", null, 2, true), q("c", "b", 3)], llmCalls: 7, pagesFetched: 5, summarised: true, measuredMs: 1200 };
  // deep: root generation 100 + b (50 + 20 + 200 + 100) + c (50 + 20 + 300) = 840, + summary 100 = 940.
  assert.equal(iterationBoundMs({ iteration: 1, sequentialLlmSteps: 6, tasks: [shallow, deep] }, latencies, limits), 600 + 940);
  // With one LLM slot the level's 11 calls (with summaries) bound it instead.
  assert.equal(iterationBoundMs({ iteration: 1, sequentialLlmSteps: 0, tasks: [shallow, deep] }, latencies, { ...limits, llmConcurrency: 1 }), 1100);
});

test("the loop's bound takes the slowest task at the time it took", () => {
  const t = (measuredMs: number) => ({ queries: [], llmCalls: 0, pagesFetched: 0, summarised: false, measuredMs });
  assert.equal(iterationLoopBoundMs({ iteration: 1, sequentialLlmSteps: 6, tasks: [t(1500), t(1200)] }, latencies), 600 + 1500);
  // A level whose tasks were all skipped is its sequential steps alone.
  assert.equal(iterationLoopBoundMs({ iteration: 2, sequentialLlmSteps: 5, tasks: [] }, latencies), 500);
});
