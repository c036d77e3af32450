// Deep Research's ANALYSIS tasks end to end against the fakes: uploaded files loaded and profiled
// (bad ones with their error), the analysis agent's SQL run in the sandbox with every query stored,
// aggregates equal to what this test computes from the fixture, a discovery pointing at the stored
// query and result, hostile SQL refused and fed back, and numbers no result holds repaired or cut.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { conversation, pollUntilDone } from "../helpers/deep-research";
import { PNG_BYTES, RAGGED_CSV, salesCsv, salesRows, salesXlsx } from "../fixtures/datasets";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "deep-research-analysis", env: { ...fakes.env, LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "1", DATASET_MAX_BYTES: "3000", ANALYSIS_QUERY_TIMEOUT_MS: "2000", ANALYSIS_MAX_STEPS: "3" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

type Cell = string | number | null;
interface Query { id: string; sql: string; ok: boolean; error: string | null; columns: string[]; rows: Cell[][]; rowCount: number; durationMs: number }
interface Artifacts { kind: string; queries: Query[]; chart: { queryId: string; spec: { mark: string; data: { values: Record<string, Cell>[] }; encoding: Record<string, { field: string }> } } | null; repairs: { unsupported: string[] }[]; removedSentences: string[] }
interface Dataset { filename: string; status?: string; table?: string; rowCount?: number; columns?: { name: string; type: string; nulls: number }[]; previewRows?: { rows: Cell[][] }; description?: string | null; error?: string }

async function startWithFiles(message: string, files: [string, string | Uint8Array][]) {
  const form = new FormData();
  form.set("message", message);
  form.set("researchMode", "steering");
  for (const [name, content] of files) form.append("files", new Blob([content as BlobPart]), name);
  const res = await app.fetch("/api/deep-research/start", { method: "POST", body: form });
  const start = await res.json();
  assert.equal(res.status, 200, JSON.stringify(start));
  const done = (await pollUntilDone(app, start.pollUrl)).at(-1)!;
  assert.equal(done.status, "completed", JSON.stringify(done));
  const c = await conversation(app, start.conversationId);
  const task = (c.plan as unknown as { id: string; type: string; status: string; output: string; error: string | null; artifacts: Artifacts }[]).find((t) => t.type === "ANALYSIS")!;
  return { c, task, datasets: (c.state as unknown as { uploadedDatasets: Dataset[] }).uploadedDatasets };
}

const rows = salesRows();
const regions = [...new Set(rows.map((r) => r.region))].sort();
const expected = regions.map((region) => {
  const mine = rows.filter((r) => r.region === region);
  return [region, mine.reduce((s, r) => s + r.units, 0), mine.length];
});

test("an ANALYSIS task over a fixture CSV reports the aggregates computed here; the discovery points to the stored query; bad files get their errors", async () => {
  const { c, task, datasets } = await startWithFiles("Regional sales #analysis #tasks-1", [
    ["sales.csv", salesCsv()],
    ["photo.csv", PNG_BYTES],
    ["ragged.csv", RAGGED_CSV],
    ["empty.csv", ""],
    ["big.csv", salesCsv(salesRows(400))],
  ]);
  // Profiles in the world state.
  const sales = datasets.find((d) => d.filename === "sales.csv")!;
  assert.equal(sales.status, "loaded", JSON.stringify(sales));
  assert.equal(sales.table, "sales");
  assert.equal(sales.rowCount, rows.length);
  assert.deepEqual(sales.columns!.map((col) => [col.name, col.nulls]), [["region", 0], ["product", 0], ["units", 0], ["price", 0]]);
  assert.match(sales.columns![2].type, /INT/);
  assert.equal(sales.previewRows!.rows[0][0], rows[0].region);
  assert.match(sales.description ?? "", /Table sales/);
  const errorOf = (name: string) => {
    const d = datasets.find((x) => x.filename === name)!;
    assert.equal(d.status, "failed", `${name}: ${JSON.stringify(d)}`);
    assert.ok(d.error!.startsWith(`${name}: `), d.error);
    return d.error!;
  };
  assert.match(errorOf("photo.csv"), /looks like a PNG image/);
  assert.match(errorOf("ragged.csv"), /ragged rows: line 3/);
  assert.match(errorOf("empty.csv"), /empty/);
  assert.match(errorOf("big.csv"), /DATASET_MAX_BYTES/);

  // Planning named the dataset that loaded, and the task ran the query in the sandbox and stored it with its result.
  assert.deepEqual((task as unknown as { datasetFilenames: string[] }).datasetFilenames, ["sales.csv"]);
  assert.equal(task.status, "completed", task.error ?? "");
  const [q1] = task.artifacts.queries;
  assert.equal(q1.id, "q1");
  assert.ok(q1.ok, q1.error ?? "");
  assert.match(q1.sql, /^SELECT "region", sum\("units"\)/);
  assert.deepEqual(q1.rows, expected);
  assert.equal(q1.rowCount, regions.length);
  assert.ok(q1.durationMs >= 0);
  // The output's figures are the data's.
  for (const [region, total, n] of expected) assert.ok(task.output.includes(`${region}: ${total} units over ${n} rows [q1]`), task.output);
  assert.deepEqual(task.artifacts.repairs, []);
  // The chart is a Vega-Lite spec over that stored result.
  assert.equal(task.artifacts.chart!.queryId, "q1");
  assert.equal(task.artifacts.chart!.spec.mark, "bar");
  assert.deepEqual(task.artifacts.chart!.spec.data.values, expected.map(([region, total, n]) => ({ region, total, n })));

  // A discovery drawn from it points at the stored query and result.
  const d = c.discoveries.find((x) => x.evidenceItems.some((e) => e.taskId === "ana-1-1"));
  assert.ok(d, JSON.stringify(c.discoveries));
  const e = d.evidenceItems.find((x) => x.taskId === "ana-1-1")! as unknown as { itemId: string; query: { sql: string; rows: Cell[][]; rowCount: number; chart: unknown } };
  assert.equal(e.itemId, "ana-1-1:q1");
  assert.equal(e.query.sql, q1.sql);
  assert.deepEqual(e.query.rows, expected);
  assert.deepEqual(e.query.chart, task.artifacts.chart!.spec);
  assert.match((d as unknown as { claim: string }).claim, new RegExp(`${expected[0][0]} ${expected[0][1]} ${expected[0][2]}`));
});

test("hostile SQL from the agent is refused and goes back to it as an error; the task completes and nothing is written", async () => {
  fs.rmSync("/tmp/quarry-exfiltrated.csv", { force: true });
  const { task } = await startWithFiles("Regional sales, exported #analysis #tasks-1 #analysis-hostile", [["sales.csv", salesCsv()]]);
  assert.equal(task.status, "completed", task.error ?? "");
  const [refused, good] = task.artifacts.queries;
  assert.equal(refused.ok, false);
  assert.match(refused.error!, /starts with COPY/);
  assert.ok(good.ok);
  assert.deepEqual(good.rows, expected);
  assert.ok(!fs.existsSync("/tmp/quarry-exfiltrated.csv"), "the COPY wrote nothing");
});

test("output citing a number no result holds is rejected and repaired; if the agent insists, the sentence is cut", async () => {
  const repaired = await startWithFiles("Regional sales totals #analysis #tasks-1 #analysis-invent", [["sales.csv", salesCsv()]]);
  assert.equal(repaired.task.status, "completed");
  assert.deepEqual(repaired.task.artifacts.repairs, [{ unsupported: ["987654"] }]);
  assert.ok(!repaired.task.output.includes("987654"), repaired.task.output);
  assert.deepEqual(repaired.task.artifacts.removedSentences, []);
  for (const [region, total] of expected) assert.ok(repaired.task.output.includes(`${region}: ${total} units`));

  const cut = await startWithFiles("Regional sales totals #analysis #tasks-1 #analysis-stubborn", [["sales.csv", salesCsv()]]);
  assert.equal(cut.task.artifacts.repairs.length, 2);
  assert.ok(!cut.task.output.includes("987654"), cut.task.output);
  assert.equal(cut.task.artifacts.removedSentences.length, 1);
  assert.match(cut.task.artifacts.removedSentences[0], /987654/);
});

test("an agent that keeps querying is stopped at ANALYSIS_MAX_STEPS and then writes its output from the results (over an XLSX upload)", async () => {
  const { task, datasets } = await startWithFiles("Regional sales, every angle #analysis #tasks-1 #analysis-endless", [["sales.xlsx", salesXlsx()]]);
  assert.equal(datasets[0].status, "loaded", JSON.stringify(datasets[0]));
  assert.deepEqual(datasets[0].columns!.map((c) => [c.name, c.type]), [["region", "VARCHAR"], ["product", "VARCHAR"], ["units", "DOUBLE"], ["price", "DOUBLE"]]);
  assert.equal(task.status, "completed", task.error ?? "");
  // The grouped totals, then counts while steps were left: ANALYSIS_MAX_STEPS=3 queries, no more.
  assert.equal(task.artifacts.queries.length, 3, JSON.stringify(task.artifacts.queries.map((q) => q.sql)));
  assert.deepEqual(task.artifacts.queries[0].rows, expected);
  assert.deepEqual(task.artifacts.queries.slice(1).map((q) => q.rows), [[[rows.length, 1]], [[rows.length, 2]]]);
  for (const [region, total] of expected) assert.ok(task.output.includes(`${region}: ${total} units`), task.output);
});
