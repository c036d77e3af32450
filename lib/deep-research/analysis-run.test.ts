// A Deep Research start with one CSV upload, run in this process against the loopback fakes and a
// real migrated database: its ANALYSIS task runs on the dataset whatever the model calls it — the
// scenario's own replies, and a misbehaving model's (its own words for every id, handles retyped,
// enum values in another case, reasoning blocks) — and no reasoning text reaches what a user sees.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { startFakes, REASONING_LEAKS, type MisbehaveMode } from "../../test/fakes";

await useTestDatabase();
const fakes = await startFakes();
const uploads = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-dr-analysis-"));
Object.assign(process.env, fakes.env, {
  UPLOADS_DIR: uploads, LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "1", ANALYSIS_MAX_STEPS: "3", SCRAPE_TIMEOUT_MS: "2000",
});
const { db } = await import("../db/client");
const { startDeepResearch } = await import("./service");
const { conversationSnapshot } = await import("./snapshot");
const { getMessage } = await import("../db/conversations");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
  fs.rmSync(uploads, { recursive: true, force: true });
});

const user = await db.user.create({ data: { email: "dr-analysis@example.com", passwordHash: "x" } });
const GENES = ["brca1", "tp53", "egfr"];
const csv = "gene,sample,value\n" + Array.from({ length: 30 }, (_, i) => `${GENES[i % 3]},s${i},${(i * 7) % 11}`).join("\n") + "\n";
const rows = csv.trim().split("\n").slice(1).map((l) => l.split(","));
// The scenario's query: the first text column grouped, the first numeric one summed, and the count.
const totals = [...GENES].sort().map((g) => {
  const mine = rows.filter((r) => r[0] === g);
  return [g, mine.reduce((n, r) => n + Number(r[2]), 0), mine.length];
});

async function run(message: string) {
  const start = await startDeepResearch({ userId: user.id, input: { message, researchMode: "steering" }, files: [new File([csv], "expr.csv")] });
  const { messageId, conversationId } = start.body;
  for (let i = 0; i < 1200; i++) {
    const m = await getMessage({ id: messageId });
    if (m && m.status !== "processing") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const root = (await getMessage({ id: messageId }))!;
  const snapshot = (await conversationSnapshot({ id: conversationId }))!;
  return { root, snapshot };
}

/** Every text of the conversation a user can see or export. */
function visibleText(s: NonNullable<Awaited<ReturnType<typeof conversationSnapshot>>>): string {
  return JSON.stringify([s.messages, s.plan.map((t) => [t.objective, t.output, t.error]), s.discoveries, s.state.conversationTitle, s.state.keyInsights, s.state.currentHypothesis]);
}

async function expectAnalysisRan(mode: MisbehaveMode | null) {
  fakes.llm.configure({ misbehave: mode });
  try {
    const { root, snapshot } = await run(`Gene expression variation #analysis #tasks-2 (${mode ?? "scenario"})`);
    assert.equal(root.status, "completed", `${mode}: ${root.error}`);
    const analysis = snapshot.plan.filter((t) => t.type === "ANALYSIS");
    assert.equal(analysis.length, 1, `${mode}: ${JSON.stringify(snapshot.plan)}`);
    const [task] = analysis;
    assert.deepEqual(task.datasetFilenames, ["expr.csv"], `${mode}: the planner's dataset resolved`);
    assert.equal(task.status, "completed", `${mode}: ${task.error}`);
    const queries = (task.artifacts as { queries: { ok: boolean; rows: unknown[][] }[] }).queries;
    assert.deepEqual(queries.find((q) => q.ok)?.rows, totals, `${mode}: the task queried the upload`);
    const text = visibleText(snapshot).toLowerCase();
    for (const leak of REASONING_LEAKS) assert.ok(!text.includes(leak), `${mode}: reasoning leaked (${leak})`);
    return snapshot;
  } finally {
    fakes.llm.configure({ misbehave: null });
  }
}

test("the scenario's model: the ANALYSIS task runs on expr.csv and a discovery links its query", async () => {
  const s = await expectAnalysisRan(null);
  const task = s.plan.find((t) => t.type === "ANALYSIS")!;
  const linked = s.discoveries.find((d) => d.evidenceItems.some((e) => e.itemId === `${task.id}:q1` && e.query?.sql));
  assert.ok(linked?.linkedEvidence, JSON.stringify(s.discoveries));
  assert.ok(s.discoveries.every((d) => d.linkedEvidence), "the scenario cites real snippets only (and one invented id, dropped)");
});

// The modes that name things their own way or add reasoning (test/integration/misbehaving-model.test.ts runs every mode on every engine).
for (const mode of ["generic", "retyped", "enum-case", "think", "reasoning-field"] as const) {
  test(`a misbehaving model (${mode}): the ANALYSIS task still runs on expr.csv, and no reasoning is shown`, async () => {
    await expectAnalysisRan(mode);
  });
}
