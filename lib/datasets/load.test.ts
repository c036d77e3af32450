// Loading every supported format into DuckDB with its profile, and a clear error naming the file for
// each kind of bad file, without affecting the files loaded beside it.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { DuckDBInstance } from "@duckdb/node-api";
import { HEADER_ONLY_CSV, PNG_BYTES, RAGGED_CSV, salesCsv, salesNdjson, salesRows, salesXlsx } from "../../test/fixtures/datasets";
import { databasePath, loadDatasets, tableNameFor } from "./load";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-datasets-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | Uint8Array): { filename: string; path: string } {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return { filename: name, path: p };
}

const rows = salesRows();
const totalUnits = rows.reduce((s, r) => s + r.units, 0);

async function writeParquet(name: string): Promise<{ filename: string; path: string }> {
  const csv = write("for-parquet.csv", salesCsv());
  const p = path.join(dir, name);
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  await c.run(`COPY (SELECT * FROM read_csv('${csv.path}')) TO '${p}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
  return { filename: name, path: p };
}

test("CSV, TSV, NDJSON, JSON array, Parquet and XLSX each load as one profiled table", async () => {
  const files = [
    write("sales.csv", salesCsv()),
    write("sales.tsv", salesCsv(rows, "\t")),
    write("sales.ndjson", salesNdjson()),
    write("sales.json", JSON.stringify(rows)),
    await writeParquet("sales.parquet"),
    write("sales.xlsx", salesXlsx()),
  ];
  const results = await loadDatasets({ dbPath: databasePath(path.join(dir)), files, maxBytes: 10_000_000, memoryLimitMb: 256, keepTables: [] });
  assert.deepEqual(results.map((r) => r.ok), [true, true, true, true, true, true], JSON.stringify(results.filter((r) => !r.ok)));
  assert.deepEqual(results.map((r) => r.ok && r.profile.table), ["sales", "sales_2", "sales_3", "sales_4", "sales_5", "sales_6"]);
  for (const r of results) {
    assert.ok(r.ok);
    assert.equal(r.profile.rowCount, rows.length, r.filename);
    assert.deepEqual(r.profile.columns.map((c) => c.name), ["region", "product", "units", "price"], r.filename);
    assert.ok(r.profile.columns.every((c) => c.nulls === 0), r.filename);
    assert.match(r.profile.columns[2].type, /INT|DOUBLE/, `${r.filename}: units is numeric`);
    assert.equal(r.profile.preview.rows.length, 5);
    assert.equal(r.profile.preview.rows[0][0], rows[0].region);
    assert.equal(Number(r.profile.preview.rows[1][2]), rows[1].units);
  }
  // The tables hold the data itself, not only a profile.
  const db = await DuckDBInstance.create(databasePath(dir), { access_mode: "READ_ONLY" });
  const c = await db.connect();
  for (const t of ["sales", "sales_2", "sales_3", "sales_4", "sales_5", "sales_6"]) {
    assert.equal(Number((await c.runAndReadAll(`SELECT sum(units) FROM ${t}`)).getRows()[0][0]), totalUnits, t);
  }
  c.closeSync();
  db.closeSync();
});

test("nulls are counted per column", async () => {
  const sub = fs.mkdtempSync(path.join(dir, "nulls-"));
  const p = path.join(sub, "gaps.csv");
  fs.writeFileSync(p, "a,b\n1,x\n,y\n3,\n,\n");
  const [r] = await loadDatasets({ dbPath: databasePath(sub), files: [{ filename: "gaps.csv", path: p }], maxBytes: 1000, memoryLimitMb: 128, keepTables: [] });
  assert.ok(r.ok);
  assert.deepEqual(r.profile.columns.map((c) => [c.name, c.nulls]), [["a", 2], ["b", 2]]);
  assert.equal(r.profile.rowCount, 4);
});

test("each bad file gets an error naming it and its problem; the good file beside them loads", async () => {
  const sub = fs.mkdtempSync(path.join(dir, "bad-"));
  const put = (name: string, content: string | Uint8Array) => {
    fs.writeFileSync(path.join(sub, name), content);
    return { filename: name, path: path.join(sub, name) };
  };
  const files = [
    put("photo.csv", PNG_BYTES),
    put("ragged.csv", RAGGED_CSV),
    put("empty.csv", ""),
    put("header.csv", HEADER_ONLY_CSV),
    put("big.csv", salesCsv(salesRows(200))),
    put("notes.docx", "hello"),
    put("fake.parquet", "region,units\n"),
    put("good.csv", salesCsv(salesRows(20))),
  ];
  const results = await loadDatasets({ dbPath: databasePath(sub), files, maxBytes: 1500, memoryLimitMb: 128, keepTables: [] });
  const byName = Object.fromEntries(results.map((r) => [r.filename, r]));
  const error = (name: string) => {
    const r = byName[name];
    assert.ok(!r.ok, `${name} must fail`);
    assert.ok(r.error.startsWith(`${name}: `), r.error);
    return r.error;
  };
  assert.match(error("photo.csv"), /named as CSV text but its content looks like a PNG image/);
  assert.match(error("ragged.csv"), /ragged rows: line 3 has 3 fields where the header has 2/);
  assert.match(error("empty.csv"), /the file is empty/);
  assert.match(error("header.csv"), /no rows of data/);
  assert.match(error("big.csv"), /more than the limit of 1500 bytes \(DATASET_MAX_BYTES\)/);
  assert.match(error("notes.docx"), /cannot be analysed/);
  assert.match(error("fake.parquet"), /named as a Parquet file but its content looks like text/);
  assert.ok(fs.statSync(path.join(sub, "good.csv")).size <= 1500, "the good file is within the limit");
  const good = byName["good.csv"];
  assert.ok(good.ok, JSON.stringify(good));
  // A failed file leaves no table behind, and its name is free for the next one.
  assert.equal(good.profile.table, "good");
  const db = await DuckDBInstance.create(databasePath(sub), { access_mode: "READ_ONLY" });
  const c = await db.connect();
  assert.deepEqual((await c.runAndReadAll("SELECT table_name FROM duckdb_tables() ORDER BY 1")).getRows().map((r) => r[0]), ["good"]);
  c.closeSync();
  db.closeSync();
});

test("a later start's files are added beside the recorded tables; a table nobody recorded (a load that died) is replaced", async () => {
  const sub = fs.mkdtempSync(path.join(dir, "twice-"));
  const p = path.join(sub, "sales.csv");
  fs.writeFileSync(p, salesCsv());
  const load = (keepTables: string[]) => loadDatasets({ dbPath: databasePath(sub), files: [{ filename: "sales.csv", path: p }], maxBytes: 1e6, memoryLimitMb: 128, keepTables });
  const first = await load([]);
  assert.equal(first[0].ok && first[0].profile.table, "sales");
  // The run died before recording "sales": loading again reuses the name, with no duplicate left.
  const again = await load([]);
  assert.equal(again[0].ok && again[0].profile.table, "sales");
  const second = await load(["sales"]);
  assert.equal(second[0].ok && second[0].profile.table, "sales_2");
  const db = await DuckDBInstance.create(databasePath(sub), { access_mode: "READ_ONLY" });
  const c = await db.connect();
  assert.deepEqual((await c.runAndReadAll("SELECT table_name FROM duckdb_tables() ORDER BY 1")).getRows().map((r) => r[0]), ["sales", "sales_2"]);
  c.closeSync();
  db.closeSync();
});

test("table names are SQL-safe and unique", () => {
  const taken = new Set<string>();
  assert.equal(tableNameFor("Sales 2024 (final).csv", taken), "sales_2024_final");
  assert.equal(tableNameFor("sales-2024-final.csv", taken), "sales_2024_final_2");
  assert.equal(tableNameFor("2024.csv", taken), "t_2024");
  assert.equal(tableNameFor("ÄÖÜ.csv", taken), "dataset");
});
