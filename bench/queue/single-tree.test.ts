// The queue bench's verdicts compare the medians of interleaved runs, not one run of each.
import assert from "node:assert/strict";
import { test } from "node:test";
import { median } from "../extraction-measure";
import { formatQueueMarkdown, roundRatios, servicesCpuDelta, singleTreeVerdicts, type QueueBenchRow, type SingleTreeRow } from "./run";

const row = (mode: SingleTreeRow["mode"], database: SingleTreeRow["database"], ratio: number): SingleTreeRow => ({
  mode, database, workers: mode === "queue" ? 2 : 0, wallMs: ratio * 2800, boundMs: 2800, limitedBy: "critical path", ratio, llmCalls: 865, cpuWeb: 5, cpuWorkers: 0, load: 1,
});

test("the workers' median ratio against each embedded mode's median", () => {
  const rows = [
    row("embedded", "sqlite", 1.6), row("embedded", "postgres", 2.0), row("queue", "postgres", 2.9),
    row("embedded", "sqlite", 1.7), row("embedded", "postgres", 2.3), row("queue", "postgres", 2.35),
    row("embedded", "sqlite", 1.65), row("embedded", "postgres", 2.25), row("queue", "postgres", 2.3),
  ];
  assert.deepEqual(singleTreeVerdicts(rows), [
    "On 2 workers − embedded on sqlite (the medians of 3 interleaved runs, wall ÷ bound 2.350 − 1.650): **+0.700** (target: within 0.1 ✗).",
    "On 2 workers − embedded on postgres (the medians of 3 interleaved runs, wall ÷ bound 2.350 − 2.250): **+0.100** (target: within 0.1 ✓).",
  ]);
});

test("one run of each: compared as they are; no queue row, no verdict", () => {
  assert.match(singleTreeVerdicts([row("embedded", "postgres", 2), row("queue", "postgres", 2.05)])[0], /^On 2 workers − embedded on postgres \(wall ÷ bound 2\.050 − 2\.000\): \*\*\+0\.050\*\* \(target: within 0\.1 ✓\)\.$/);
  assert.deepEqual(singleTreeVerdicts([row("embedded", "postgres", 2)]), []);
});

test("the queue rows' figure: the median of the interleaved rounds' ratios, each round its own 2 workers ÷ 1", () => {
  const rows = [17.5, 10.8, 17.2, 10.3, 16.9, 11.6].map((s, i): QueueBenchRow => ({
    workers: (i % 2) + 1, researches: 10, depth: 3, breadth: 3, completed: 10, wallMs: s * 1000, queries: 150, llmCalls: 1260, nodeJobs: i % 2 ? [75, 75] : [150], cpuSeconds: 9, load: 1,
  }));
  const ratios = roundRatios(rows, 2);
  assert.deepEqual(ratios.map((r) => r.toFixed(3)), ["0.617", "0.599", "0.686"]);
  const markdown = formatQueueMarkdown({ rows, ratio: median(ratios), ratios, workerConcurrency: 4, partConcurrency: 4 });
  assert.match(markdown, /Wall on 2 workers ÷ on 1 \(the median of 3 interleaved rounds: 0\.617, 0\.599, 0\.686\): \*\*0\.617\*\* \(target ≤ 0\.6 ✗\)\./);
});

test("rows not run (--queue-rows-runs 0): the report says so, and the single tree's table follows", () => {
  const markdown = formatQueueMarkdown({ rows: [], ratio: Number.NaN, ratios: [], workerConcurrency: 4, partConcurrency: 4,
    singleTree: { depth: 5, breadth: 5, partConcurrency: 16, rows: [row("embedded", "postgres", 1.3), row("queue", "postgres", 1.35)] } });
  assert.match(markdown, /The rows of concurrent researches were not run \(`--queue-rows-runs 0`\)\./);
  assert.doesNotMatch(markdown, /Wall on/);
  assert.match(markdown, /\*\*\+0\.050\*\* \(target: within 0\.1 ✓\)/);
});

test("the report names the warm-up per process doing the work, when the result has it", () => {
  const base = { rows: [], ratio: Number.NaN, ratios: [], workerConcurrency: 4, partConcurrency: 4 };
  assert.match(formatQueueMarkdown({ ...base, warmUpPerProcess: { researches: 9, depth: 2, breadth: 3 } }), /a warm-up of 9 \(2, 3\) researches per process doing the work: the embedded server, or each worker/);
  assert.doesNotMatch(formatQueueMarkdown(base), /warm-up/);
});

test("the services' CPU over a row leaves out a backend that exited meanwhile, instead of subtracting its earlier CPU", () => {
  // Three backends: one used 0.5 s during the row, one exited (reads 0), one used 0.2 s.
  assert.equal(servicesCpuDelta([1.0, 3.0, 0.4], [1.5, 0, 0.6]).toFixed(2), "0.70");
});
