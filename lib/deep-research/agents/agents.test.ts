// Deep Research's agents name what exists by handle (D1, S3, lit-1-2, q2) and resolve the model's
// near-misses: each agent is called through generateStructured against a scripted OpenAI-compatible
// server that answers as a model writing its own way would (file names in upper case, a dataset
// described instead of named, handles bracketed, enum values in another case, a reasoning block).
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resetEnvCache } from "../../env";
import { planTasks } from "./planning";
import { clarificationPlan } from "./clarification";
import { formHypothesis } from "./hypothesis";
import { summariseLiterature } from "./literature-summary";
import { findDiscoveries } from "./discovery";
import { analyseDatasets } from "./analysis";
import type { PlannedDataset } from "./common";

interface Request { agent: string; prompt: string; schema: Record<string, unknown> | undefined }
let server: Server;
let requests: Request[] = [];
/** The reply's text for a request (JSON, or anything a model writes). */
let answer: (r: Request) => string = () => "{}";

before(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { messages: { role: string; content: string }[]; response_format?: { json_schema?: { schema?: Record<string, unknown> } } };
      const system = parsed.messages.find((m) => m.role === "system")?.content ?? "";
      const request = {
        agent: /^You are Quarry's ([\w-]+) agent\./.exec(system)?.[1] ?? "unknown",
        prompt: parsed.messages.find((m) => m.role === "user")?.content ?? "",
        schema: parsed.response_format?.json_schema?.schema,
      };
      requests.push(request);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({
        id: `chatcmpl-${requests.length}`, object: "chat.completion", created: 1_735_689_600, model: "fake-model",
        choices: [{ index: 0, message: { role: "assistant", content: answer(request) }, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  process.env.OPENAI_API_KEY = "test";
  process.env.RESEARCH_MODEL = "fake-model";
  process.env.LLM_MAX_RETRIES = "0";
  resetEnvCache();
  requests = [];
});

const json = (value: unknown) => () => JSON.stringify(value);
const expr: PlannedDataset = { filename: "expr.csv", table: "expr", rowCount: 1200, columns: [{ name: "gene", type: "VARCHAR" }, { name: "value", type: "DOUBLE" }] };
const samples: PlannedDataset = { filename: "Samples 2024.xlsx", table: "samples_2024", rowCount: 40, columns: [{ name: "sample", type: "VARCHAR" }] };
const analysisTask = (datasets: unknown[]) => json({ tasks: [{ type: "ANALYSIS", objective: "Which genes vary most?", datasets }] });
const plan = (datasets: PlannedDataset[]) => planTasks({ context: "<objective>\nGenes\n</objective>", maxTasks: 3, mode: "initial", datasets });

/** The JSON Schema of a planned task, as the last request sent it. */
function taskSchema(): { properties: Record<string, { items?: { enum?: string[] } }> } {
  const tasks = (requests.at(-1)!.schema as { properties: { tasks: { items: unknown } } }).properties.tasks;
  return tasks.items as ReturnType<typeof taskSchema>;
}

describe("the planner names datasets by handle", () => {
  test("with one dataset loaded, 'Expression data', 'EXPR.CSV', 'expr' and '[D1]' are all expr.csv", async () => {
    for (const name of ["Expression data", "EXPR.CSV", "expr", "[D1]", "d1"]) {
      answer = analysisTask([name]);
      const [task] = await plan([expr]);
      assert.deepEqual(task.datasetFilenames, ["expr.csv"], name);
    }
    assert.match(requests[0].prompt, /<loaded_datasets>\nD1: expr\.csv \(table expr, 1,200 rows: gene VARCHAR, value DOUBLE\)\n<\/loaded_datasets>/);
    assert.deepEqual(taskSchema().properties.datasets.items?.enum, ["D1"], "the schema offers the handles");
  });

  test("with two, a file, table or handle in the model's own spelling names one; what names none gets them all", async () => {
    const cases: [unknown[], string[]][] = [
      [["EXPR.CSV"], ["expr.csv"]],
      [["[D1]"], ["expr.csv"]],
      [["samples_2024"], ["Samples 2024.xlsx"]],
      [["samples 2024"], ["Samples 2024.xlsx"]],
      [[" d2 ", "D2"], ["Samples 2024.xlsx"]],
      [["Expression data"], ["expr.csv", "Samples 2024.xlsx"]],
      [[], ["expr.csv", "Samples 2024.xlsx"]],
    ];
    for (const [named, files] of cases) {
      answer = analysisTask(named);
      const [task] = await plan([expr, samples]);
      assert.deepEqual(task.datasetFilenames, files, JSON.stringify(named));
    }
    assert.deepEqual(taskSchema().properties.datasets.items?.enum, ["D1", "D2"]);
  });

  test("with no dataset loaded, the schema offers none and an ANALYSIS task names none (it is skipped at run time, saying why)", async () => {
    answer = json({ tasks: [{ type: "ANALYSIS", objective: "Analyse the data" }, { type: "LITERATURE", objective: "Read" }] });
    const tasks = await plan([]);
    assert.deepEqual(tasks.map((t) => [t.type, t.datasetFilenames]), [["ANALYSIS", []], ["LITERATURE", []]]);
    assert.ok(!("datasets" in taskSchema().properties), "no dataset field without datasets");
    assert.ok(!requests[0].prompt.includes("<loaded_datasets>"));
    assert.doesNotMatch(JSON.stringify(requests[0].schema), /"D1"/);
  });

  test("enum values in another case and a reasoning block with braces do not fail the call", async () => {
    answer = () => `<think>I'll answer {"tasks": [...]}. A draft: {"tasks": "draft"}</think>\n{"tasks": [{"type": "Literature", "objective": "Read on genes", "datasets": []}, {"type": " analysis ", "objective": "Vary", "datasets": ["Expression data"]}]}`;
    const tasks = await plan([expr]);
    assert.deepEqual(tasks, [
      { type: "LITERATURE", objective: "Read on genes", datasetFilenames: [] },
      { type: "ANALYSIS", objective: "Vary", datasetFilenames: ["expr.csv"] },
    ]);
    assert.equal(requests.length, 1, "no repair was needed");
  });

  test("the next steps are resolved the same way, and a LITERATURE task never keeps datasets", async () => {
    answer = json({ suggestedNextSteps: [{ type: "LITERATURE", objective: "Read", datasets: ["D1"] }, { type: "ANALYSIS", objective: "Check", datasets: ["Samples 2024.xlsx"] }] });
    const steps = await planTasks({ context: "", maxTasks: 3, mode: "next", datasets: [expr, samples] });
    assert.deepEqual(steps.map((s) => s.datasetFilenames), [[], ["Samples 2024.xlsx"]]);
  });

  test("the plan writer offers the files the user named, by handle", async () => {
    answer = json({ objective: "Genes", initialTasks: [{ type: "analysis", objective: "Vary", datasets: ["the expression file"] }] });
    const out = await clarificationPlan({ query: "Genes", qa: [], maxTasks: 3, datasets: ["expr.csv"] });
    assert.deepEqual(out.initialTasks, [{ type: "ANALYSIS", objective: "Vary", datasetFilenames: ["expr.csv"] }]);
    assert.match(requests[0].prompt, /<datasets>\nD1: expr\.csv\n<\/datasets>/);
  });
});

test("the hypothesis rests only on tasks that exist, named in the model's own spelling", async () => {
  answer = json({ hypothesis: "H", rationale: "R", evidenceTaskIds: ["LIT-1-1", "[ana-1-2]", "Task 1", "lit-9-9"] });
  const h = await formHypothesis({ context: "", knownTaskIds: ["lit-1-1", "lit-1-2", "ana-1-2"] });
  assert.deepEqual(h.evidenceTaskIds, ["lit-1-1", "ana-1-2"]);
});

const items = [
  { id: "cmitemaaaaaaaaaaaaaaaaaaa1", taskKey: "lit-1-1", content: "Gene A varies most.", url: "https://a.example/genes" },
  { id: "cmitemaaaaaaaaaaaaaaaaaaa2", taskKey: "lit-1-1", content: "Gene B is stable.", url: "https://b.example/stable" },
];

test("a literature summary cites snippets by handle; they are stored as the snippets' ids, invented ones removed", async () => {
  answer = json({ summary: "Gene A varies [S1]. B is stable [s2, Source 1]. An aside [made-up:1]." });
  const out = await summariseLiterature({ objective: "Genes", items, budgetTokens: 2_000 });
  assert.equal(out.summary, `Gene A varies [${items[0].id}]. B is stable [${items[1].id}][${items[0].id}]. An aside.`);
  assert.deepEqual(out.citedItemIds, [items[0].id, items[1].id]);
  assert.match(requests[0].prompt, /<item id="S1" task="lit-1-1"/);
  assert.ok(!requests[0].prompt.includes("cmitem"), "stored ids are not shown to be retyped");
});

test("a discovery's evidence resolves from handles in the model's spelling; one naming nothing is kept without linked evidence", async () => {
  answer = json({
    discoveries: [
      { key: null, action: "New", claim: "Gene A varies", evidence: "E", novelty: "N", confidence: "High", supportingTaskIds: ["Lit-1-1"], evidenceItems: ["[s1]", "S9"], reason: "R" },
      { key: "null", action: "new", claim: "Gene B is stable", evidence: "E", novelty: "N", confidence: "low", supportingTaskIds: [], evidenceItems: ["a study"], reason: "R" },
      { key: "DISC-1", action: "retire", claim: "Old", evidence: "E", novelty: "N", confidence: "low", supportingTaskIds: [], evidenceItems: [], reason: "Refuted" },
    ],
  });
  const out = await findDiscoveries({
    context: "", items, existing: [{ key: "disc-1", claim: "Old", confidence: "low", status: "active" }], itemBudgetTokens: 2_000, knownTaskIds: ["lit-1-1"],
  });
  assert.deepEqual(out.changes.map((c) => [c.key, c.action, c.claim, c.items.map((i) => i.itemId), c.supportingTaskIds]), [
    [null, "new", "Gene A varies", [items[0].id], ["lit-1-1"]],
    [null, "new", "Gene B is stable", [], []],
    ["disc-1", "retire", "Old", [], []],
  ]);
  assert.deepEqual(out.unlinked, ["Gene B is stable"]);
  assert.deepEqual(out.droppedItemIds, ["S9", "a study"]);
  const schema = JSON.stringify(requests[0].schema);
  assert.match(schema, /"enum":\["S1","S2"\]/);
  assert.match(schema, /"enum":\["lit-1-1"\]/);
});

test("an analysis cites its queries and charts a result by id in the model's spelling; queries that did not run are not cited", async () => {
  let step = 0;
  answer = () => JSON.stringify(step++ === 0
    ? { thought: "Sum", sql: "SELECT gene, sum(value) AS total FROM expr GROUP BY 1", output: null, chart: null }
    : { thought: "Done", sql: null, output: "Gene A totals 12 [Q1]. Gene B totals 3 [query 1]. More [q5].", chart: { queryId: "[Q1]", mark: "Bar", x: "GENE", y: "Total", color: null, title: "Totals" } });
  const out = await analyseDatasets({
    objective: "Totals", context: "", maxSteps: 2, budgetTokens: 2_000,
    datasets: [{ table: "expr", filename: "expr.csv", rowCount: 2, columns: [{ name: "gene", type: "VARCHAR", nulls: 0 }, { name: "value", type: "DOUBLE", nulls: 0 }], description: null }],
    runQuery: async () => ({ ok: true, columns: ["gene", "total"], rows: [["A", 12], ["B", 3]], rowCount: 2, truncated: false, durationMs: 1 }),
  });
  assert.equal(out.output, "Gene A totals 12 [q1]. Gene B totals 3 [q1]. More.");
  assert.equal(out.chart?.queryId, "q1");
  assert.deepEqual((out.chart?.spec.encoding as Record<string, { field: string }>).x.field, "gene");
  assert.deepEqual((out.chart?.spec.encoding as Record<string, { field: string }>).y.field, "total");
  assert.match(JSON.stringify(requests[1].schema), /"queryId":\{[^}]*"enum":\["q1"\]/);
});
