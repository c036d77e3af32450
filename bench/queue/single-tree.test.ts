// The single tree's verdict compares the medians of interleaved runs, not one run of each.
import assert from "node:assert/strict";
import { test } from "node:test";
import { singleTreeVerdicts, type SingleTreeRow } from "./run";

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
