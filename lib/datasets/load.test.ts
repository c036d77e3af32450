// Loading every supported format into DuckDB with its profile, and a clear error naming the file for
// each kind of bad file, without affecting the files loaded beside it.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  BIG_INTEGERS_CSV, BIG_INTEGERS_NDJSON, HEADER_ONLY_CSV, LATIN1_CSV, MALFORMED_NDJSON, PNG_BYTES, RAGGED_CSV, salesCsv, salesNdjson, salesRows, salesXlsx,
  SEMICOLON_CSV, AFTER_QUOTE_CSV, UNCLOSED_QUOTE_CSV, UTF16_CSV,
} from "../../test/fixtures/datasets";
import { databasePath, loadDatasets, tableNameFor } from "./load";
import { sniffDelimiter } from "./text";

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

/** Loads files into a database of their own; the results by file name. */
async function loadAll(files: [string, string | Uint8Array][]) {
  const sub = fs.mkdtempSync(path.join(dir, "fidelity-"));
  const entries = files.map(([name, content]) => {
    fs.writeFileSync(path.join(sub, name), content);
    return { filename: name, path: path.join(sub, name) };
  });
  const results = await loadDatasets({ dbPath: databasePath(sub), files: entries, maxBytes: 1e7, memoryLimitMb: 128, keepTables: [] });
  return { sub, byName: Object.fromEntries(results.map((r) => [r.filename, r])) };
}

async function readTable(sub: string, sql: string) {
  const db = await DuckDBInstance.create(databasePath(sub), { access_mode: "READ_ONLY" });
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (v === null ? null : String(v))));
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

test("a semicolon-separated CSV loads as its columns, and says how it was read", async () => {
  const { byName } = await loadAll([["semi.csv", SEMICOLON_CSV], ["tabs.csv", salesCsv(rows, "\t")], ["commas.tsv", salesCsv(rows)]]);
  for (const name of ["semi.csv", "tabs.csv", "commas.tsv"]) {
    const r = byName[name];
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.profile.columns.map((c) => c.name), ["region", "product", "units", "price"], name);
    assert.equal(r.profile.rowCount, rows.length);
  }
  assert.ok(byName["semi.csv"].ok && byName["semi.csv"].readAs === "semicolon-separated");
  assert.ok(byName["tabs.csv"].ok && byName["tabs.csv"].readAs === "tab-separated");
  assert.ok(byName["commas.tsv"].ok && byName["commas.tsv"].readAs === "comma-separated");
});

test("Latin-1 and UTF-16 text is decoded and its encoding named; UTF-8 is not named", async () => {
  const { sub, byName } = await loadAll([["latin.csv", LATIN1_CSV], ["utf16.csv", UTF16_CSV], ["plain.csv", "name,city\nJosé,München\n"]]);
  const latin = byName["latin.csv"];
  assert.ok(latin.ok, JSON.stringify(latin));
  assert.equal(latin.readAs, "Latin-1 (Windows-1252) text");
  assert.deepEqual(await readTable(sub, "SELECT name, city, price FROM latin ORDER BY name"), [["José", "München", "12"], ["Straße", "Köln", "€3"], ["Zoë", "Zürich", "7"]]);
  const utf16 = byName["utf16.csv"];
  assert.ok(utf16.ok, JSON.stringify(utf16));
  assert.equal(utf16.readAs, "UTF-16 (little-endian) text");
  assert.deepEqual(await readTable(sub, "SELECT name, city FROM utf16 ORDER BY name"), [["José", "München"], ["Zoë", "Zürich"]]);
  assert.ok(byName["plain.csv"].ok && byName["plain.csv"].readAs === null);
  // The UTF-8 copies made for DuckDB are gone.
  assert.deepEqual(fs.readdirSync(sub).filter((f) => f.startsWith(".utf8-")), []);
});

test("64-bit and wider integers stay exact in CSV and NDJSON: BIGINT, HUGEINT or DECIMAL, never DOUBLE", async () => {
  const { sub, byName } = await loadAll([["ids.csv", BIG_INTEGERS_CSV], ["ids.ndjson", BIG_INTEGERS_NDJSON]]);
  const csv = byName["ids.csv"];
  assert.ok(csv.ok, JSON.stringify(csv));
  assert.deepEqual(csv.profile.columns.map((c) => [c.name, c.type]), [["id", "BIGINT"], ["huge", "HUGEINT"], ["mixed", "DECIMAL(38,2)"], ["price", "DOUBLE"]]);
  assert.deepEqual(await readTable(sub, "SELECT id, huge, mixed, price FROM ids ORDER BY id"), [
    ["9007199254740993", "123456789012345678901234", "9007199254740993.00", "1.5"],
    ["9007199254740995", "5", "1.25", "2.5"],
  ]);
  // The preview keeps the digits too (as text where a JavaScript number cannot hold them).
  assert.deepEqual(csv.profile.preview.rows[0].slice(0, 3), ["9007199254740993", "123456789012345678901234", "9007199254740993.00"]);
  const json = byName["ids.ndjson"];
  assert.ok(json.ok, JSON.stringify(json));
  assert.deepEqual(json.profile.columns.map((c) => [c.name, c.type]), [["id", "BIGINT"], ["huge", "HUGEINT"], ["price", "DOUBLE"]]);
  assert.deepEqual(await readTable(sub, "SELECT id, huge FROM ids_2 ORDER BY id"), [["1", "5"], ["9007199254740993", "123456789012345678901234"]]);
});

test("a load error names the cause: line, column, what was expected — and no server path", async () => {
  const { sub, byName } = await loadAll([["unclosed.csv", UNCLOSED_QUOTE_CSV], ["quote.csv", AFTER_QUOTE_CSV], ["broken.ndjson", MALFORMED_NDJSON]]);
  const error = (name: string) => {
    const r = byName[name];
    assert.ok(!r.ok, `${name} must fail`);
    assert.ok(!r.error.includes(sub) && !r.error.includes(os.tmpdir()), `no server path: ${r.error}`);
    return r.error;
  };
  assert.match(error("unclosed.csv"), /^unclosed\.csv: line 3, column "note" \(field 2\): a quoted field is never closed \(expected a closing quote/);
  assert.match(error("quote.csv"), /^quote\.csv: line 3, column "note" \(field 2\): text after a closing quote \(expected ',' or the end of the line\)/);
  assert.match(error("broken.ndjson"), /^broken\.ndjson: the file could not be loaded \(.*Malformed JSON in file "broken\.ndjson".*line 3/);
});

test("the delimiter sniffed: the name's own first, decimal commas and quoted delimiters not taken for one, a ragged file by its majority", () => {
  assert.equal(sniffDelimiter("a,b\n1,2\n", ","), ",");
  assert.equal(sniffDelimiter("a;b;c\n1,5;2,5;3\n4;5;6\n", ","), ";");
  assert.equal(sniffDelimiter('name,note\n"Smith; J.",x\n"Doe; A.",y\n', ","), ",");
  assert.equal(sniffDelimiter("a\tb\n1\t2\n", ","), "\t");
  assert.equal(sniffDelimiter("a|b\n1|2\n", "\t"), "|");
  assert.equal(sniffDelimiter("only\n1\n2\n", ","), ",");
  assert.equal(sniffDelimiter("a;b;c\n1;2;3\n4;5\n6;7;8\n", ","), ";");
  // A head cut inside a record is read up to its last whole line.
  assert.equal(sniffDelimiter("a;b\n1;2\n3;", ","), ";");
});
