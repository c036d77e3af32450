// Handles resolved in code: task drafts' datasets, the datasets an ANALYSIS task runs on, inline
// citations, and the analysis agent's query citations and chart choices.
import assert from "node:assert/strict";
import { test } from "node:test";
import { choicesOf } from "../../ai/resolve";
import type { DatasetEntry } from "../../db/datasets";
import { datasetsOfTask } from "../task-datasets";
import { citeQueries } from "./analysis";
import { chartSpec } from "./analysis-chart";
import { resolveCitations } from "./choices";
import { datasetChoices, renderDatasetChoices, resolveDrafts } from "./common";

const expr = { filename: "expr.csv", table: "expr", rowCount: 1200, columns: [{ name: "gene", type: "VARCHAR" }] };
const sales = { filename: "sales.csv", table: "sales", rowCount: 3 };

test("drafts: an ANALYSIS task's datasets resolve to file names; one naming none gets every dataset; counts are bounded", () => {
  const choices = datasetChoices([expr, sales]);
  assert.equal(renderDatasetChoices(choices), "D1: expr.csv (table expr, 1,200 rows: gene VARCHAR)\nD2: sales.csv (table sales, 3 rows)");
  const drafts = resolveDrafts([
    { type: "ANALYSIS", objective: " a ", datasets: ["SALES"] },
    { type: "ANALYSIS", objective: "b", datasets: ["Expression data"] },
    { type: "LITERATURE", objective: "c", datasets: ["D1"] },
    { type: "ANALYSIS", objective: "  " },
    { type: "ANALYSIS", objective: "d", datasets: ["D1"] },
  ], choices, 3);
  assert.deepEqual(drafts, [
    { type: "ANALYSIS", objective: "a", datasetFilenames: ["sales.csv"] },
    { type: "ANALYSIS", objective: "b", datasetFilenames: ["expr.csv", "sales.csv"] },
    { type: "LITERATURE", objective: "c", datasetFilenames: [] },
  ]);
  // No dataset: nothing to name (the task is skipped at run time, saying so).
  assert.deepEqual(resolveDrafts([{ type: "ANALYSIS", objective: "a", datasets: ["expr.csv"] }], [], 3)[0].datasetFilenames, []);
});

const entry = (filename: string, table?: string, error?: string): DatasetEntry => ({
  filename, size: 10, preview: "", uploadedAt: "2026-01-01T00:00:00Z", ...(table ? { status: "loaded" as const, table } : { status: "failed" as const, error }),
});

test("an ANALYSIS task runs on the loaded datasets it names, in any spelling, or on all of them; skipped only with nothing loaded", () => {
  const entries = [entry("expr.csv", "expr"), entry("photo.csv", undefined, "photo.csv: looks like a PNG image"), entry("Sales 2024.xlsx", "sales_2024")];
  const files = (named: string[]) => {
    const out = datasetsOfTask(entries, named);
    return out.ok ? out.datasets.map((d) => d.filename) : out.reason;
  };
  assert.deepEqual(files(["EXPR.CSV"]), ["expr.csv"]);
  assert.deepEqual(files(["sales_2024"]), ["Sales 2024.xlsx"]);
  assert.deepEqual(files(["Expression data"]), ["expr.csv", "Sales 2024.xlsx"]);
  assert.deepEqual(files(["photo.csv"]), ["expr.csv", "Sales 2024.xlsx"], "a dataset that failed to load: the task analyses what loaded");
  assert.deepEqual(files([]), ["expr.csv", "Sales 2024.xlsx"]);
  assert.deepEqual(datasetsOfTask([entries[0]], ["Expression data"]), { ok: true, datasets: [entries[0]] });
  assert.deepEqual(datasetsOfTask([], ["expr.csv"]), { ok: false, reason: "No dataset was uploaded, so there is no data to analyse." });
  assert.deepEqual(datasetsOfTask([entries[1]], []), { ok: false, reason: "No uploaded dataset could be loaded: photo.csv: looks like a PNG image" });
});

test("inline citations: handles in any spelling resolve, invented ids go with their space, prose and links stay", () => {
  const choices = choicesOf("S", ["one", "two", "three"], (v) => [`id-${v}`]);
  const render = (cited: { value: string }[]) => `<${cited.map((c) => c.value).join("+")}>`;
  const { text, cited } = resolveCitations("A [S1]. B [s2, Source 3]. C [S2 S1]. D [id-three]. E [S9]. F [sic]. G [Figure 2]. H [link](https://x.example). I [2023].", choices, render);
  assert.equal(text, "A <one>. B <two+three>. C <two+one>. D <three>. E. F [sic]. G [Figure 2]. H [link](https://x.example). I.");
  assert.deepEqual(cited.map((c) => c.value), ["one", "two", "three"]);
});

test("an analysis output's query citations become the queries' ids; citations of queries that did not run go", () => {
  assert.equal(citeQueries("North 412 [Q1]. South 380 [q2, query 1]. Made up [q7]. Kept [note 2].", [{ id: "q1" }, { id: "q2" }]), "North 412 [q1]. South 380 [q2, q1]. Made up. Kept [note 2].");
});

test("a chart's result and columns resolve in the model's spelling; a missing axis column drops it", () => {
  const results = [{ id: "q1", columns: ["region", "total"], rows: [["north", 412]] }, { id: "q2", columns: ["n"], rows: [[3]] }];
  const chart = chartSpec({ queryId: "Q1", mark: "bar", x: "Region", y: "TOTAL", color: null, title: "T" }, results);
  assert.equal(chart?.queryId, "q1");
  assert.deepEqual(chart?.spec.encoding, { x: { field: "region", type: "nominal" }, y: { field: "total", type: "quantitative" } });
  assert.equal(chartSpec({ queryId: "q1", mark: "bar", x: "region", y: "units", color: null, title: "T" }, results), null);
  assert.equal(chartSpec({ queryId: "q9", mark: "bar", x: "region", y: "total", color: null, title: "T" }, results), null);
  assert.deepEqual(chartSpec({ queryId: "q1", mark: "bar", x: "region", y: "total", color: "Product", title: "T" }, results)?.spec.encoding, chart?.spec.encoding, "an unknown colour is left out");
});
