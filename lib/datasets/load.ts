// Loading uploaded files into one DuckDB database per conversation (a file under the conversation's
// upload directory, so that analysis tasks query it read-only and a resumed run does not load again).
// Each file becomes one table named after it. Text is read in its own encoding (text.ts: named when
// not UTF-8) with its own delimiter (a semicolon CSV loads as its columns), and numbers stay exact
// (exact.ts). A file that cannot be loaded gets a DatasetError that names it and its cause (the line,
// the column, what was expected; no server path), and the others load as if it were not there.
import fs from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { checkContent, DatasetError, formatOf, SUPPORTED_EXTENSIONS } from "./formats";
import { profileTable, type TableProfile } from "./profile";
import { firstCsvProblem } from "./csv-problems";
import { wideningsFor, widenedSelect } from "./exact";
import { pathNames, scrubPaths } from "./paths";
import { quoteIdent, quoteLiteral } from "./sql-guard";
import { decodeHead, DELIMITER_NAMES, detectEncoding, ENCODING_NAMES, sniffDelimiter, utf16Bom, utf8Copy } from "./text";
import { loadXlsx } from "./xlsx";

export const DATABASE_FILE = ".datasets.duckdb";

export function databasePath(dir: string): string {
  return path.join(dir, DATABASE_FILE);
}

/** A table name from a file name: lower-case letters, digits and underscores, unique in the database. */
export function tableNameFor(filename: string, taken: Set<string>): string {
  let base = path.basename(filename, path.extname(filename)).toLowerCase().replace(/[^a-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "dataset";
  if (/^[0-9]/.test(base)) base = `t_${base}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/** How a text file was read, for the user, when it was not plain UTF-8 with its name's delimiter. */
export type LoadResult =
  | { filename: string; ok: true; profile: TableProfile; loadMs: number; readAs: string | null }
  | { filename: string; ok: false; error: string };

/**
 * Loads each file into the database at `dbPath` (created if missing); one result per file, in order.
 * `keepTables` are the tables the caller has recorded; any other table was loaded by a run that died
 * before recording it, and is dropped first, so that a resumed load does not leave a duplicate behind.
 */
export async function loadDatasets({ dbPath, files, maxBytes, memoryLimitMb, keepTables }: {
  dbPath: string;
  files: { filename: string; path: string }[];
  maxBytes: number;
  memoryLimitMb: number;
  keepTables: string[];
}): Promise<LoadResult[]> {
  const instance = await DuckDBInstance.create(dbPath, { memory_limit: `${memoryLimitMb}MB`, autoinstall_known_extensions: "false", autoload_known_extensions: "false" });
  const conn = await instance.connect();
  const workDir = path.dirname(path.resolve(dbPath));
  try {
    const existing = (await conn.runAndReadAll("SELECT table_name FROM duckdb_tables()")).getRows().map((r) => String(r[0]));
    for (const orphan of existing.filter((t) => !keepTables.includes(t))) await conn.run(`DROP TABLE ${quoteIdent(orphan)}`);
    const taken = new Set(existing.filter((t) => keepTables.includes(t)));
    const out: LoadResult[] = [];
    for (const file of files) {
      const started = performance.now();
      const table = tableNameFor(file.filename, taken);
      const copies: string[] = [];
      try {
        const readAs = await loadOne({ conn, table, filePath: file.path, filename: file.filename, maxBytes, workDir, copies });
        const profile = await profileTable(conn, table);
        if (profile.rowCount === 0) throw new DatasetError(file.filename, "the file has no rows of data.");
        out.push({ filename: file.filename, ok: true, profile, loadMs: Math.round(performance.now() - started), readAs });
      } catch (error) {
        await conn.run(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
        taken.delete(table);
        out.push({ filename: file.filename, ok: false, error: describeFailure(file.filename, error, [file.path, ...copies], workDir) });
      } finally {
        await Promise.all(copies.map((c) => fs.rm(c, { force: true })));
      }
    }
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The cause DuckDB gives: its first line, or for a CSV error the line number and the problem under it. */
export function duckdbCause(message: string): string {
  const lines = message.split("\n").map((l) => l.trim());
  const csvLine = /CSV Error on Line: (\d+)/.exec(lines[0]);
  if (csvLine) {
    const cause = lines.slice(1).find((l) => l && !/^(Original Line|Possible Solution|LINE \d)/i.test(l));
    return `line ${csvLine[1]}: ${cause ?? lines[0]}`;
  }
  return lines[0];
}

function describeFailure(filename: string, error: unknown, filePaths: string[], workDir: string): string {
  if (error instanceof DatasetError) return error.message;
  // DuckDB's messages run to many lines (the sniffer's search space) and name the file by its path:
  // the cause, with the file by its name and no server directory.
  let cause = duckdbCause(error instanceof Error ? error.message : String(error));
  for (const p of filePaths) cause = cause.split(path.resolve(p)).join(filename);
  return `${filename}: the file could not be loaded (${scrubPaths(cause, pathNames([[workDir, "datasets"]]))}).`;
}

async function readHead(filePath: string, size: number): Promise<Buffer> {
  const handle = await fs.open(filePath);
  const head = Buffer.alloc(Math.min(64 * 1024, size));
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  return head;
}

/** Loads one file as `table`; returns how a text file was read when that is worth saying (not UTF-8, another delimiter). */
async function loadOne({ conn, table, filePath, filename, maxBytes, workDir, copies }: {
  conn: DuckDBConnection; table: string; filePath: string; filename: string; maxBytes: number; workDir: string; copies: string[];
}): Promise<string | null> {
  const format = formatOf(filename);
  if (!format) throw new DatasetError(filename, `files of this type cannot be analysed; use ${SUPPORTED_EXTENSIONS.join(", ")}.`);
  const stat = await fs.stat(filePath).catch(() => null);
  if (!stat) throw new DatasetError(filename, "the stored file is missing.");
  if (stat.size === 0) throw new DatasetError(filename, "the file is empty.");
  if (stat.size > maxBytes) throw new DatasetError(filename, `the file is ${stat.size} bytes, more than the limit of ${maxBytes} bytes (DATASET_MAX_BYTES).`);
  const head = await readHead(filePath, stat.size);
  if (format === "parquet" || format === "xlsx") {
    checkContent(filename, format, head);
    if (format === "xlsx") await loadXlsx(conn, table, filePath, filename);
    else await conn.run(`CREATE TABLE ${quoteIdent(table)} AS SELECT * FROM read_parquet(${quoteLiteral(path.resolve(filePath))})`);
    return null;
  }
  // UTF-16 text has NUL bytes: its content is checked as the text it is.
  const bom = utf16Bom(head);
  checkContent(filename, format, bom ? Buffer.from(decodeHead(head, bom)) : head);
  const encoding = await detectEncoding(filePath, head);
  let source = filePath;
  if (encoding !== "utf-8") {
    source = await utf8Copy(filePath, encoding, workDir);
    copies.push(source);
  }
  const notes = encoding === "utf-8" ? [] : [`${ENCODING_NAMES[encoding]} text`];
  if (format === "json") {
    await loadText(conn, table, (varchar) => jsonReader(source, varchar));
    return notes[0] ?? null;
  }
  const preferred = format === "tsv" ? "\t" : ",";
  const delimiter = sniffDelimiter(decodeHead(head, encoding), preferred);
  if (delimiter !== preferred) notes.push(`${DELIMITER_NAMES[delimiter]}-separated`);
  await loadText(conn, table, (varchar) => csvReader(source, delimiter, varchar)).catch(async (error: unknown) => {
    const problem = await firstCsvProblem(source, delimiter);
    if (problem) throw new DatasetError(filename, problem.message);
    throw error;
  });
  return notes.length > 0 ? notes.join(", ") : null;
}

/**
 * Creates the table from a reader (`reader(varcharColumns)` reads those columns as text), then makes
 * any DOUBLE column that would lose digits exact (exact.ts) by reading it again as text.
 */
async function loadText(conn: DuckDBConnection, table: string, reader: (varchar: Map<string, string>) => Promise<string> | string): Promise<void> {
  const t = quoteIdent(table);
  await conn.run(`CREATE TABLE ${t} AS SELECT * FROM ${await reader(new Map())}`);
  const described = (await conn.runAndReadAll(`DESCRIBE ${t}`)).getRows().map((r) => ({ name: String(r[0]), type: String(r[1]) }));
  const doubles = described.filter((c) => c.type === "DOUBLE").map((c) => c.name);
  if (doubles.length === 0) return;
  const asText = (columns: string[]) => new Map(described.map((c) => [c.name, columns.includes(c.name) ? "VARCHAR" : c.type]));
  const widenings = await wideningsFor(conn, await reader(asText(doubles)), doubles);
  if (widenings.length === 0) return;
  const source = await reader(asText(widenings.map((w) => w.column)));
  await conn.run(`CREATE OR REPLACE TABLE ${t} AS SELECT ${widenedSelect(widenings)} FROM ${source}`);
}

/** A struct literal of column types: {'a': 'VARCHAR', …}. */
function typesLiteral(types: Map<string, string>, only?: (type: string) => boolean): string {
  return `{${[...types].filter(([, type]) => !only || only(type)).map(([name, type]) => `${quoteLiteral(name)}: ${quoteLiteral(type)}`).join(", ")}}`;
}

// The delimiter is the sniffed one, and rows must all have the header's width: strict mode with no
// padding makes a ragged file fail instead of loading as one column of text.
function csvReader(filePath: string, delimiter: string, varchar: Map<string, string>): string {
  const types = varchar.size > 0 ? `, types = ${typesLiteral(varchar, (type) => type === "VARCHAR")}` : "";
  return `read_csv(${quoteLiteral(path.resolve(filePath))}, header = true, delim = ${quoteLiteral(delimiter)}, quote = '"', escape = '"', strict_mode = true, null_padding = false, sample_size = -1${types})`;
}

// JSON with every column's type given when some are to be read as text (read_json has no per-column override).
function jsonReader(filePath: string, columns: Map<string, string>): string {
  const p = quoteLiteral(path.resolve(filePath));
  return columns.size > 0 ? `read_json(${p}, columns = ${typesLiteral(columns)})` : `read_json_auto(${p}, sample_size = -1)`;
}
