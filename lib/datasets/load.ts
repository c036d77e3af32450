// Loading uploaded files into one DuckDB database per conversation (a file under the conversation's
// upload directory, so that analysis tasks query it read-only and a resumed run does not load again).
// Each file becomes one table named after it; a file that cannot be loaded gets a DatasetError that
// names it and says why, and the others load as if it were not there.
import fs from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { checkContent, DatasetError, formatOf, SUPPORTED_EXTENSIONS, type DatasetFormat } from "./formats";
import { profileTable, type TableProfile } from "./profile";
import { firstRaggedLine } from "./ragged";
import { quoteIdent, quoteLiteral } from "./sql-guard";
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

export type LoadResult = { filename: string; ok: true; profile: TableProfile; loadMs: number } | { filename: string; ok: false; error: string };

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
  try {
    const existing = (await conn.runAndReadAll("SELECT table_name FROM duckdb_tables()")).getRows().map((r) => String(r[0]));
    for (const orphan of existing.filter((t) => !keepTables.includes(t))) await conn.run(`DROP TABLE ${quoteIdent(orphan)}`);
    const taken = new Set(existing.filter((t) => keepTables.includes(t)));
    const out: LoadResult[] = [];
    for (const file of files) {
      const started = performance.now();
      const table = tableNameFor(file.filename, taken);
      try {
        await loadOne(conn, table, file.path, file.filename, maxBytes);
        const profile = await profileTable(conn, table);
        if (profile.rowCount === 0) throw new DatasetError(file.filename, "the file has no rows of data.");
        out.push({ filename: file.filename, ok: true, profile, loadMs: Math.round(performance.now() - started) });
      } catch (error) {
        await conn.run(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
        taken.delete(table);
        out.push({ filename: file.filename, ok: false, error: describeFailure(file.filename, error) });
      }
    }
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

function describeFailure(filename: string, error: unknown): string {
  if (error instanceof DatasetError) return error.message;
  // DuckDB's messages run to many lines (the sniffer's search space): its first line is the problem.
  const first = (error instanceof Error ? error.message : String(error)).split("\n")[0].trim();
  return `${filename}: the file could not be loaded (${first}).`;
}

async function loadOne(conn: DuckDBConnection, table: string, filePath: string, filename: string, maxBytes: number): Promise<void> {
  const format = formatOf(filename);
  if (!format) throw new DatasetError(filename, `files of this type cannot be analysed; use ${SUPPORTED_EXTENSIONS.join(", ")}.`);
  const stat = await fs.stat(filePath).catch(() => null);
  if (!stat) throw new DatasetError(filename, "the stored file is missing.");
  if (stat.size === 0) throw new DatasetError(filename, "the file is empty.");
  if (stat.size > maxBytes) throw new DatasetError(filename, `the file is ${stat.size} bytes, more than the limit of ${maxBytes} bytes (DATASET_MAX_BYTES).`);
  const handle = await fs.open(filePath);
  const head = Buffer.alloc(Math.min(8192, stat.size));
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  checkContent(filename, format, head);
  if (format === "xlsx") return loadXlsx(conn, table, filePath, filename);
  await conn.run(`CREATE TABLE ${quoteIdent(table)} AS SELECT * FROM ${reader(format, filePath)}`).catch(async (error: unknown) => {
    if (format === "csv" || format === "tsv") {
      const ragged = await firstRaggedLine(filePath, format === "tsv" ? "\t" : ",");
      if (ragged) throw new DatasetError(filename, `ragged rows: line ${ragged.line} has ${ragged.fields} fields where the header has ${ragged.expected}.`);
    }
    throw error;
  });
}

function reader(format: Exclude<DatasetFormat, "xlsx">, filePath: string): string {
  const p = quoteLiteral(path.resolve(filePath));
  switch (format) {
    // The delimiter is the name's, and rows must all have the header's width: strict mode with no
    // padding makes a ragged file fail instead of loading as one column of text.
    case "csv":
      return `read_csv(${p}, header = true, delim = ',', quote = '"', escape = '"', strict_mode = true, null_padding = false, sample_size = -1)`;
    case "tsv":
      return `read_csv(${p}, header = true, delim = '\t', quote = '"', escape = '"', strict_mode = true, null_padding = false, sample_size = -1)`;
    case "json":
      return `read_json_auto(${p}, sample_size = -1)`;
    case "parquet":
      return `read_parquet(${p})`;
  }
}
