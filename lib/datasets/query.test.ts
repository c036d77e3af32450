// The query sandbox: a SELECT returns its rows (capped), count and duration; every forbidden form is
// refused (by the guard, by DuckDB's parser, or by the read-only instance with external access off),
// a query that runs forever or explodes is stopped within the time limit, and nothing is written.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { salesCsv, salesRows } from "../../test/fixtures/datasets";
import { databasePath, loadDatasets } from "./load";
import { DatasetSandbox } from "./query";
import { refusalOf } from "./sql-guard";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-sandbox-"));
const outside = path.join(dir, "outside.csv");
const rows = salesRows();
const LIMITS = { timeoutMs: 1_000, maxRows: 10, memoryLimitMb: 128, threads: 1 };
let sandbox: DatasetSandbox;

// Every file under the directory with its size and time. DuckDB may create its (empty) temporary
// directory when a query reaches the memory limit; spilling is off (max_temp_directory_size 0), so no file lands there.
function listing(): string {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => `${f}:${fs.statSync(f).size}:${fs.statSync(f).mtimeMs}`).sort().join("\n");
}
let before_: string;

before(async () => {
  fs.writeFileSync(path.join(dir, "sales.csv"), salesCsv());
  fs.writeFileSync(outside, "secret\nvalue\n");
  const [r] = await loadDatasets({ dbPath: databasePath(dir), files: [{ filename: "sales.csv", path: path.join(dir, "sales.csv") }], maxBytes: 1e6, memoryLimitMb: 128, keepTables: [] });
  assert.ok(r.ok);
  before_ = listing();
  sandbox = await DatasetSandbox.open(databasePath(dir), LIMITS);
});
after(() => {
  sandbox?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a SELECT returns columns, rows, row count and duration; aggregates are the data's", async () => {
  const r = await sandbox.query("SELECT region, sum(units) AS units, round(avg(price), 2) AS avg_price FROM sales GROUP BY region ORDER BY region");
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.columns, ["region", "units", "avg_price"]);
  const expected = [...new Set(rows.map((x) => x.region))].sort().map((region) => {
    const mine = rows.filter((x) => x.region === region);
    return [region, mine.reduce((s, x) => s + x.units, 0), Math.round((mine.reduce((s, x) => s + x.price, 0) / mine.length) * 100) / 100];
  });
  assert.deepEqual(r.rows, expected);
  assert.equal(r.rowCount, 4);
  assert.equal(r.truncated, false);
  assert.ok(r.durationMs >= 0);
});

test("WITH … SELECT and DuckDB's FROM-first select are allowed", async () => {
  const w = await sandbox.query("WITH big AS (SELECT * FROM sales WHERE units > 25) SELECT count(*) AS n FROM big");
  assert.ok(w.ok, JSON.stringify(w));
  assert.equal(w.rows[0][0], rows.filter((x) => x.units > 25).length);
  const f = await sandbox.query("FROM sales SELECT max(units)");
  assert.ok(f.ok, JSON.stringify(f));
  assert.equal(f.rows[0][0], Math.max(...rows.map((x) => x.units)));
});

test("the rows kept are capped; the row count is the result's", async () => {
  const r = await sandbox.query("SELECT * FROM sales");
  assert.ok(r.ok);
  assert.equal(r.rows.length, LIMITS.maxRows);
  assert.equal(r.rowCount, rows.length);
  assert.equal(r.truncated, true);
});

const HOSTILE: [string, string, RegExp][] = [
  ["file read by a table function", `SELECT * FROM read_csv('${outside}')`, /read_csv\(\) is not allowed/],
  ["file read by a quoted function name (past the guard)", `SELECT * FROM "read_csv"('${outside}')`, /Permission Error|file system operations are disabled/],
  ["file read by its path", `SELECT * FROM '${outside}'`, /Reading a file by its path/],
  ["file read by a path in a join", `SELECT * FROM sales JOIN '${outside}' ON true`, /Reading a file by its path/],
  ["read_text", `SELECT * FROM read_text('/etc/hostname')`, /read_text\(\) is not allowed/],
  ["glob", "SELECT * FROM glob('/*')", /glob\(\) is not allowed/],
  ["SQL given as text", "SELECT * FROM query('SELECT 1')", /query\(\) is not allowed/],
  ["COPY", `COPY sales TO '${path.join(dir, "out.csv")}'`, /starts with COPY/],
  ["COPY inside a CTE-looking prefix", `WITH x AS (SELECT 1) COPY sales TO '${path.join(dir, "out.csv")}'`, /Only SELECT|Parser Error|syntax error/i],
  ["ATTACH", `ATTACH '${path.join(dir, "other.db")}' AS o`, /starts with ATTACH/],
  ["INSTALL", "INSTALL httpfs", /starts with INSTALL/],
  ["LOAD", "LOAD httpfs", /starts with LOAD/],
  ["PRAGMA", "PRAGMA table_info('sales')", /starts with PRAGMA/],
  ["SET", "SET threads = 8", /starts with SET/],
  ["RESET", "RESET memory_limit", /starts with RESET/],
  ["CALL", "CALL pragma_version()", /starts with CALL/],
  ["EXPLAIN", "EXPLAIN SELECT 1", /starts with EXPLAIN/],
  ["CREATE", "CREATE TABLE z AS SELECT 1", /starts with CREATE/],
  ["INSERT", "INSERT INTO sales VALUES ('x', 'y', 1, 1)", /starts with INSERT/],
  ["DELETE", "DELETE FROM sales", /starts with DELETE/],
  ["DROP", "DROP TABLE sales", /starts with DROP/],
  ["EXPORT DATABASE", `EXPORT DATABASE '${path.join(dir, "dump")}'`, /starts with EXPORT/],
  ["two statements", "SELECT 1; SELECT 2", /Exactly one statement is allowed per query; this SQL has 2/],
  ["a write after a select", "SELECT 1; DROP TABLE sales", /Exactly one statement is allowed per query; this SQL has 2/],
  ["a second statement hidden after a comment", "SELECT 1 -- harmless\n; COPY sales TO '/tmp/x.csv'", /Exactly one statement is allowed/],
];

for (const [name, sql, expected] of HOSTILE) {
  test(`refused: ${name}`, async () => {
    const r = await sandbox.query(sql);
    assert.equal(r.ok, false, `${name} must be refused: ${JSON.stringify(r)}`);
    assert.match(r.error, expected);
  });
}

test("DuckDB's own statement type check refuses what the guard lets through", async () => {
  // A SELECT-looking first word is not enough: the parser decides the statement's type.
  assert.equal(refusalOf("WITH x AS (SELECT 1) INSERT INTO sales SELECT * FROM sales"), null);
  const r = await sandbox.query("WITH x AS (SELECT 1) INSERT INTO sales SELECT * FROM sales");
  assert.equal(r.ok, false);
  assert.match(r.error, /Only SELECT statements are allowed; this one is INSERT/);
});

test("the configuration is locked: a setting cannot be changed from inside a query", async () => {
  const r = await sandbox.query("SELECT current_setting('enable_external_access') AS v, current_setting('lock_configuration') AS l");
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.rows[0], [false, true]);
});

test("a query that runs forever is stopped within the time limit, and the sandbox goes on", async () => {
  const started = Date.now();
  const r = await sandbox.query("SELECT sum(i % 7) FROM range(10000000000000) t(i)");
  const took = Date.now() - started;
  assert.equal(r.ok, false);
  assert.match(r.error, /stopped after the time limit of 1000 ms/);
  assert.ok(took < LIMITS.timeoutMs + 1_500, `stopped in ${took} ms`);
  const again = await sandbox.query("SELECT count(*) FROM sales");
  assert.ok(again.ok && again.rows[0][0] === rows.length);
});

test("a cross join that explodes is stopped by the time or memory limit", async () => {
  const started = Date.now();
  const r = await sandbox.query("SELECT a.region, b.product, c.units, d.price, e.units FROM sales a, sales b, sales c, sales d, sales e ORDER BY 5, 4, 3");
  assert.equal(r.ok, false, JSON.stringify(r).slice(0, 200));
  assert.match(r.error, /time limit|memory/i);
  assert.ok(Date.now() - started < LIMITS.timeoutMs + 1_500);
});

test("nothing was written: the directory and the table are as they were", async () => {
  assert.equal(listing(), before_);
  const r = await sandbox.query("SELECT count(*), sum(units) FROM sales");
  assert.ok(r.ok);
  assert.deepEqual(r.rows[0], [rows.length, rows.reduce((s, x) => s + x.units, 0)]);
});
