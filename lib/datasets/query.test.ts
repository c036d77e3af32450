// The query sandbox: a SELECT returns its rows (capped), its exact count and duration; every forbidden
// form is refused (by DuckDB's parse tree, or by the read-only instance with external access off), a
// query that runs forever or explodes is an error within the time limit — never rows with a partial
// count —, no error or cell names the server's directories, and nothing is written.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { salesCsv, salesRows } from "../../test/fixtures/datasets";
import { databasePath, loadDatasets } from "./load";
import { DatasetSandbox } from "./query";
import type { DuckDBConnection } from "@duckdb/node-api";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-sandbox-"));
const outside = path.join(dir, "outside.csv");
const rows = salesRows();
const LIMITS = { timeoutMs: 1_000, maxRows: 10, memoryLimitMb: 128, threads: 1 };
/** Rows of the table whose self-join (BIG² rows) cannot be counted within the time limit. */
const BIG = 20_000;
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
  fs.writeFileSync(path.join(dir, "big.csv"), salesCsv(salesRows(BIG)));
  fs.writeFileSync(outside, "secret\nvalue\n");
  const loaded = await loadDatasets({ dbPath: databasePath(dir), files: ["sales.csv", "big.csv"].map((f) => ({ filename: f, path: path.join(dir, f) })), maxBytes: 1e7, memoryLimitMb: 128, keepTables: [] });
  assert.ok(loaded.every((r) => r.ok), JSON.stringify(loaded));
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
  ["file read by a quoted function name", `SELECT * FROM "read_csv"('${outside}')`, /read_csv\(\) is not allowed/],
  ["read_text by a quoted name", `SELECT * FROM "read_text"('${outside}')`, /read_text\(\) is not allowed/],
  ["a schema-qualified reader", `SELECT * FROM system.main.read_text('${outside}')`, /read_text\(\) is not allowed/],
  ["a reader as a scalar call", `SELECT lower("read_blob"('${outside}')::VARCHAR)`, /read_blob\(\) is not allowed/],
  ["a reader in a subquery of a filter", `SELECT * FROM sales WHERE region IN (SELECT content FROM read_text('${outside}'))`, /read_text\(\) is not allowed/],
  ["file read by its path", `SELECT * FROM '${outside}'`, /Reading a file by its path/],
  ["file read by a double-quoted path", `SELECT * FROM "${outside}"`, /Reading a file by its path/],
  ["file read by a relative name", `SELECT * FROM 'outside.csv'`, /Reading a file by its path/],
  ["file read by a path in a join", `SELECT * FROM sales JOIN '${outside}' ON true`, /Reading a file by its path/],
  ["read_text", `SELECT * FROM read_text('/etc/hostname')`, /read_text\(\) is not allowed/],
  ["glob", "SELECT * FROM glob('/*')", /glob\(\) is not allowed/],
  ["SQL given as text", "SELECT * FROM query('SELECT 1')", /query\(\) is not allowed/],
  ["serialized SQL run", "SELECT * FROM json_execute_serialized_sql('{}')", /json_execute_serialized_sql\(\) is not allowed/],
  ["the database files", "SELECT * FROM duckdb_databases()", /duckdb_databases\(\) is not allowed/],
  ["the database files as a view", "SELECT * FROM duckdb_databases", /system table duckdb_databases is not allowed/],
  ["the settings (paths)", "SELECT * FROM duckdb_settings()", /duckdb_settings\(\) is not allowed/],
  ["a setting", "SELECT current_setting('secret_directory')", /current_setting\(\) is not allowed/],
  ["the database list", "SELECT * FROM pragma_database_list", /system table pragma_database_list is not allowed/],
  ["COPY", `COPY sales TO '${path.join(dir, "out.csv")}'`, /another kind of statement \(it starts with COPY\)/],
  ["COPY inside a CTE-looking prefix", `WITH x AS (SELECT 1) COPY sales TO '${path.join(dir, "out.csv")}'`, /Only one SELECT|Parser Error/],
  ["an INSERT after a CTE", "WITH x AS (SELECT 1) INSERT INTO sales SELECT * FROM sales", /another kind of statement \(it starts with WITH\)/],
  ["ATTACH", `ATTACH '${path.join(dir, "other.db")}' AS o`, /starts with ATTACH/],
  ["INSTALL", "INSTALL httpfs", /starts with INSTALL/],
  ["LOAD", "LOAD httpfs", /starts with LOAD/],
  ["PRAGMA", "PRAGMA table_info('sales')", /starts with PRAGMA/],
  ["SET", "SET threads = 8", /starts with SET/],
  ["SET after a comment", "/* harmless */ -- really\nSET threads = 8", /starts with SET/],
  ["RESET", "RESET memory_limit", /starts with RESET/],
  ["CALL", "CALL pragma_version()", /starts with CALL/],
  ["EXPLAIN", "EXPLAIN SELECT 1", /starts with EXPLAIN/],
  ["CREATE", "CREATE TABLE z AS SELECT 1", /starts with CREATE/],
  ["INSERT", "INSERT INTO sales VALUES ('x', 'y', 1, 1)", /starts with INSERT/],
  ["DELETE", "DELETE FROM sales", /starts with DELETE/],
  ["DROP", "DROP TABLE sales", /starts with DROP/],
  ["EXPORT DATABASE", `EXPORT DATABASE '${path.join(dir, "dump")}'`, /starts with EXPORT/],
  ["two statements", "SELECT 1; SELECT 2", /Exactly one statement is allowed per query; this SQL has 2/],
  ["a write after a select", "SELECT 1; DROP TABLE sales", /another kind of statement|Exactly one statement/],
  ["a second statement hidden after a comment", "SELECT 1 -- harmless\n; COPY sales TO '/tmp/x.csv'", /another kind of statement|Exactly one statement/],
  ["a syntax error", "SELEC region FROM sales", /Parser Error: syntax error/],
  ["nothing", "  -- only a comment", /The query is empty/],
];

for (const [name, sql, expected] of HOSTILE) {
  test(`refused: ${name}`, async () => {
    const r = await sandbox.query(sql);
    assert.equal(r.ok, false, `${name} must be refused: ${JSON.stringify(r)}`);
    assert.match(r.error, expected);
    assert.ok(!r.error.includes(dir), `no server path in the error: ${r.error}`);
  });
}

test("SQL words inside literals, comments and quoted names are the parser's, not a pattern's", async () => {
  // A '--' literal is a string, not a comment that hides the rest; a column named "read_csv" is a column.
  const dashes = await sandbox.query("SELECT count(*) AS n FROM sales WHERE region <> '--' AND product <> 'read_csv(''x'')' -- a real comment");
  assert.ok(dashes.ok, JSON.stringify(dashes));
  assert.equal(dashes.rows[0][0], rows.length);
  const named = await sandbox.query(`SELECT region AS "read_text", 'COPY x TO y' AS "from '/etc/passwd'" FROM sales LIMIT 1`);
  assert.ok(named.ok, JSON.stringify(named));
  assert.deepEqual(named.columns, ["read_text", "from '/etc/passwd'"]);
  // PIVOT with its values, DESCRIBE and SUMMARIZE parse as SELECTs and run.
  const pivot = await sandbox.query("PIVOT sales ON region IN ('north', 'south') USING sum(units)");
  assert.ok(pivot.ok, JSON.stringify(pivot));
  const described = await sandbox.query("DESCRIBE sales");
  assert.ok(described.ok, JSON.stringify(described));
  const tables = await sandbox.query("SELECT table_name FROM duckdb_tables() ORDER BY 1");
  assert.ok(tables.ok, JSON.stringify(tables));
  assert.deepEqual(tables.rows, [["big"], ["sales"]]);
});

test("no error or result names the server's directories", async () => {
  const missing = await sandbox.query("SELECT * FROM no_such_table");
  assert.equal(missing.ok, false);
  assert.match(missing.error, /no_such_table does not exist/);
  const info = await sandbox.query("SELECT database_name, schema_name, table_name FROM duckdb_tables()");
  assert.ok(info.ok);
  assert.ok(!JSON.stringify(info).includes(dir), JSON.stringify(info));
});

test("the configuration is locked: a setting cannot be changed even on the connection itself", async () => {
  const conn = (sandbox as unknown as { conn: DuckDBConnection }).conn;
  await assert.rejects(conn.run("SET enable_external_access = true"), /locked/i);
  const settings = await conn.runAndReadAll("SELECT current_setting('enable_external_access'), current_setting('lock_configuration')");
  assert.deepEqual(settings.getRows()[0], [false, true]);
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

// The targets of issue 53: a result the time limit cut is an error, never a partial count stored as ok.
const INTERRUPTED: [string, string][] = [
  ["a self-join of a big table (400,000,000 rows)", "SELECT a.units FROM big a, big b"],
  ["a billion rows streamed", "SELECT * FROM range(1000000000)"],
  ["a billion rows, counted by the client", "SELECT range % 7 AS r FROM range(1000000000)"],
];

for (const [name, sql] of INTERRUPTED) {
  test(`interrupted, so an error with no row count: ${name}`, async () => {
    const started = Date.now();
    const r = await sandbox.query(sql);
    assert.equal(r.ok, false, `must not be stored as a result: ${JSON.stringify({ ...r, rows: undefined })}`);
    assert.match(r.error, /stopped after the time limit of 1000 ms.*incomplete/);
    assert.ok(!("rowCount" in r));
    assert.ok(Date.now() - started < LIMITS.timeoutMs + 2_000, `stopped in ${Date.now() - started} ms`);
    const again = await sandbox.query("SELECT count(*) FROM sales");
    assert.ok(again.ok && again.rows[0][0] === rows.length, "the sandbox goes on");
  });
}

test("a result that finishes has its exact row count, whatever rows are kept", async () => {
  const r = await sandbox.query("SELECT a.units FROM big a, sales b");
  assert.ok(r.ok, JSON.stringify(r).slice(0, 300));
  assert.equal(r.rowCount, BIG * rows.length);
  assert.equal(r.rows.length, LIMITS.maxRows);
  assert.equal(r.truncated, true);
});

test("64-bit and 128-bit integers and wide decimals come back exact", async () => {
  const r = await sandbox.query("SELECT 9007199254740993::BIGINT AS b, 123456789012345678901234::HUGEINT AS h, 12345678901234567.25::DECIMAL(38,2) AS d, 12.50::DECIMAL(10,2) AS small, sum(units)::HUGEINT AS s FROM sales");
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.rows[0], ["9007199254740993", "123456789012345678901234", "12345678901234567.25", 12.5, rows.reduce((s, x) => s + x.units, 0)]);
});

test("nothing was written: the directory and the table are as they were", async () => {
  assert.equal(listing(), before_);
  const r = await sandbox.query("SELECT count(*), sum(units) FROM sales");
  assert.ok(r.ok);
  assert.deepEqual(r.rows[0], [rows.length, rows.reduce((s, x) => s + x.units, 0)]);
});
