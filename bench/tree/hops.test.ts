// The timeline's hops: a hand-built two-level tree with known gaps.
import assert from "node:assert/strict";
import { test } from "node:test";
import { timelineHops } from "./hops";

const latencies = { llmMs: 150, searchMs: 80, webMs: 60 };

test("hops are measured from each step's answer to the next step's request, children linked to their parents", () => {
  const t = {
    t0: 1_000,
    wallMs: 2_000,
    search: [
      { at: 1_160, q: "x aspect 1" }, // root planning answered at 1_150: 10 ms
      { at: 1_600, q: "x aspect 1.1" }, // its planning answered at 1_570: 30 ms
      { at: 1_650, q: "x aspect 1.2" }, // 80 ms
    ],
    llm: [
      { at: 1_000, agent: "query-generator" },
      { at: 1_305, agent: "website-analyzer", q: "x aspect 1" }, // 1_160 + 80 + 60 = 1_300: 5 ms
      { at: 1_405, agent: "website-analyzer", q: "x aspect 1" }, // answered 1_555
      { at: 1_420, agent: "query-generator", q: "x aspect 1" }, // … planning 1_420 - 1_555 = -135 (it did not wait)
      { at: 1_745, agent: "website-analyzer", q: "x aspect 1.1" },
      { at: 1_790, agent: "website-analyzer", q: "x aspect 1.2" },
      { at: 2_000, agent: "report-writer" }, // 1_790 + 150 = 1_940: 60 ms
      { at: 2_160, agent: "citation-verifier" }, // 2_150: 10 ms
      { at: 2_170, agent: "citation-verifier" }, // answered 2_320; the run ended at 3_000: 680 ms
    ],
  };
  const h = timelineHops(t, latencies);
  assert.deepEqual(h.planningToSearch, { n: 2, p50: 55, p90: 75, max: 80 });
  assert.deepEqual(Object.keys(h.planningToSearchByDepth), ["2"]);
  assert.equal(h.planningToSearchByDepth[2].n, 2);
  assert.deepEqual([h.searchToFirstAnalysis.n, h.searchToFirstAnalysis.max], [3, 5]);
  assert.deepEqual(h.lastAnalysisToPlanning, { n: 1, p50: -135, p90: -135, max: -135 });
  assert.deepEqual(h.tail, { lastAnalysisToReport: 60, reportToVerification: 10, verificationToEnd: 680 });
});
