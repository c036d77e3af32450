// The sandbox's own process: queries answer as in process; one that needs more memory than the
// process may have fails as an error — the server's memory does not move — and the next query runs
// in a fresh process; a process that dies mid-query is an error, not a hang; nothing is left running.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { salesCsv, salesRows } from "../../test/fixtures/datasets";
import { databasePath, loadDatasets } from "./load";
import { SandboxProcess } from "./sandbox-process";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-sandbox-process-"));
const rows = salesRows();
const LIMITS = { timeoutMs: 5_000, maxRows: 10, memoryLimitMb: 128, threads: 1 };
let sandbox: SandboxProcess;

before(async () => {
  fs.writeFileSync(path.join(dir, "sales.csv"), salesCsv());
  const [r] = await loadDatasets({ dbPath: databasePath(dir), files: [{ filename: "sales.csv", path: path.join(dir, "sales.csv") }], maxBytes: 1e6, memoryLimitMb: 128, keepTables: [] });
  assert.ok(r.ok);
  // 128 MB for DuckDB's buffers and 512 MB for the process: a 600 MB string cannot be made.
  sandbox = await SandboxProcess.open(databasePath(dir), LIMITS, { dataLimitMb: 512 });
});
after(() => {
  sandbox?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pidOf = (s: SandboxProcess) => s.pid;

test("a query answers from the child process with the data's aggregates; a refusal is the same as in process", async () => {
  const r = await sandbox.query("SELECT count(*) AS n, sum(units) AS u FROM sales");
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.rows, [[rows.length, rows.reduce((s, x) => s + x.units, 0)]]);
  assert.notEqual(pidOf(sandbox), process.pid);
  const refused = await sandbox.query(`SELECT * FROM "read_text"('/etc/hostname')`);
  assert.equal(refused.ok, false);
  assert.match(refused.ok ? "" : refused.error, /read_text\(\) is not allowed/);
});

test("a query past the process's memory limit is an error; the server's memory does not move; the next query runs", async () => {
  const rssBefore = process.memoryUsage().rss;
  const r = await sandbox.query("SELECT length(repeat('x', 600000000)) AS n");
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.match(r.ok ? "" : r.error, /out of memory/i);
  assert.ok(process.memoryUsage().rss - rssBefore < 100 * 1024 * 1024, "the server's memory stayed where it was");
  const again = await sandbox.query("SELECT count(*) FROM sales");
  assert.ok(again.ok && again.rows[0][0] === rows.length, JSON.stringify(again));
});

test("a process that dies mid-query is an error naming memory, and a fresh one takes the next query", async () => {
  const first = pidOf(sandbox)!;
  const running = sandbox.query("SELECT sum(i) FROM range(100000000000) t(i)");
  await new Promise((r) => setTimeout(r, 300));
  process.kill(first, "SIGKILL");
  const r = await running;
  assert.equal(r.ok, false);
  assert.match(r.ok ? "" : r.error, /ran out of memory: its process went past the sandbox's limit of 512 MB/);
  const again = await sandbox.query("SELECT count(*) FROM sales");
  assert.ok(again.ok && again.rows[0][0] === rows.length, JSON.stringify(again));
  assert.notEqual(pidOf(sandbox), first);
});

test("a text value too long to keep is an error, not a cut value", async () => {
  const r = await sandbox.query("SELECT repeat('x', 200000) AS long_text");
  assert.equal(r.ok, false);
  assert.match(r.ok ? "" : r.error, /text value of 200000 characters/);
});

test("closing ends the process", async () => {
  const s = await SandboxProcess.open(databasePath(dir), LIMITS);
  const pid = pidOf(s)!;
  s.close();
  await new Promise((r) => setTimeout(r, 300));
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
  const r = await s.query("SELECT 1");
  assert.equal(r.ok, false);
  assert.match(r.ok ? "" : r.error, /closed/);
});
