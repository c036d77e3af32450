// A large dataset end to end (issue 53's target): a 150 MB CSV attached to a Deep Research start is
// streamed to disk (under the default DATASET_MAX_BYTES of 200 MB), loaded with its exact row count,
// and queried by the ANALYSIS task, whose aggregates equal what this test computed while writing it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { conversation, pollUntilDone } from "../helpers/deep-research";
import { salesRows } from "../fixtures/datasets";

const TARGET_BYTES = 150 * 1024 * 1024;

let fakes: Fakes;
let app: TestApp;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-large-dataset-"));

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "dataset-large-upload", env: { ...fakes.env, LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "1", UPLOADS_DIR: path.join(dir, "uploads") } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A process's resident memory, in bytes (Linux). */
function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb ?? 0) * 1024;
}

/** Writes the fixture's sales rows, repeated, to `file` until it holds `bytes`; returns the rows written and each region's [units, rows]. */
function writeLargeCsv(file: string, bytes: number): { rows: number; byRegion: Map<string, [number, number]> } {
  const pattern = salesRows(420);
  const fd = fs.openSync(file, "w");
  let written = fs.writeSync(fd, "region,product,units,price\n");
  let rows = 0;
  const byRegion = new Map<string, [number, number]>();
  const block = pattern.map((r) => `${r.region},${r.product},${r.units},${r.price}\n`).join("");
  const blockBytes = Buffer.byteLength(block);
  while (written + blockBytes <= bytes) {
    written += fs.writeSync(fd, block);
    rows += pattern.length;
    for (const r of pattern) {
      const [units, n] = byRegion.get(r.region) ?? [0, 0];
      byRegion.set(r.region, [units + r.units, n + 1]);
    }
  }
  fs.closeSync(fd);
  return { rows, byRegion };
}

test("a 150 MB CSV uploads, loads with its exact row count and is queried by the analysis", async (t) => {
  const file = path.join(dir, "sales.csv");
  const { rows, byRegion } = writeLargeCsv(file, TARGET_BYTES);
  assert.ok(fs.statSync(file).size > 149 * 1024 * 1024, "the fixture is about 150 MB");

  // The route is loaded first (a start refused for its missing message), so that the server's idle
  // figure below includes its code; then its memory is sampled while the 150 MB are sent.
  const warm = new FormData();
  warm.append("files", new Blob(["a,b\n1,2\n"]), "warm.csv");
  assert.equal((await app.fetch("/api/deep-research/start", { method: "POST", body: warm })).status, 400);
  const idle = rssBytes(app.pid!);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(app.pid!))), 50);

  const form = new FormData();
  form.set("message", "Regional sales #analysis #tasks-1");
  form.set("researchMode", "steering");
  form.append("files", await fs.openAsBlob(file), "sales.csv");
  let res: Response;
  let start: { pollUrl: string; conversationId: string };
  try {
    res = await app.fetch("/api/deep-research/start", { method: "POST", body: form });
    start = await res.json();
  } finally {
    // Also when the upload fails: a sampler left running keeps the file's process alive to its timeout.
    clearInterval(sampler);
  }
  assert.equal(res.status, 200, JSON.stringify(start));
  // Streamed to disk: the server does not hold the file (Next's copy of a body for its proxy included).
  t.diagnostic(`server RSS: ${Math.round(idle / 1024 / 1024)} MB idle, ${Math.round(peak / 1024 / 1024)} MB at most during the upload`);
  assert.ok(peak - idle < 100 * 1024 * 1024, `the server's memory grew by ${Math.round((peak - idle) / 1024 / 1024)} MB while the file was uploaded`);
  assert.deepEqual(fs.readdirSync(path.join(dir, "uploads", ".incoming")), [], "no temporary file is left");
  const done = (await pollUntilDone(app, start.pollUrl, 300_000)).at(-1)!;
  assert.equal(done.status, "completed", JSON.stringify(done));

  const c = await conversation(app, start.conversationId);
  const datasets = (c.state as unknown as { uploadedDatasets: { filename: string; status?: string; rowCount?: number; error?: string }[] }).uploadedDatasets;
  const sales = datasets.find((d) => d.filename === "sales.csv")!;
  assert.equal(sales.status, "loaded", JSON.stringify(sales));
  assert.equal(sales.rowCount, rows, "the stored row count is exact");

  type Cell = string | number | null;
  const task = (c.plan as unknown as { type: string; status: string; error: string | null; artifacts: { queries: { ok: boolean; error: string | null; rows: Cell[][] }[] } }[]).find((t) => t.type === "ANALYSIS")!;
  assert.equal(task.status, "completed", task.error ?? "");
  const [q1] = task.artifacts.queries;
  assert.ok(q1.ok, q1.error ?? "");
  const expected = [...byRegion.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([region, [units, n]]) => [region, units, n]);
  assert.deepEqual(q1.rows, expected);
});
