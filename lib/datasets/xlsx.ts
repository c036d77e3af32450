// XLSX through read-excel-file (pure JS: DuckDB's excel extension cannot be downloaded offline). The
// first sheet's first row is the header; each column gets the one type all its cells share (else
// text), and rows go into DuckDB through an appender.
import { readSheet } from "read-excel-file/node";
import { timestampValue, type DuckDBConnection } from "@duckdb/node-api";
import { DatasetError } from "./formats";
import { quoteIdent } from "./sql-guard";

type Kind = "DOUBLE" | "BOOLEAN" | "TIMESTAMP" | "VARCHAR";
type XCell = string | number | boolean | Date | null | undefined;

function kindOf(values: XCell[]): Kind {
  const present = values.filter((v) => v !== null && v !== undefined && v !== "");
  if (present.length > 0 && present.every((v) => typeof v === "number")) return "DOUBLE";
  if (present.length > 0 && present.every((v) => typeof v === "boolean")) return "BOOLEAN";
  if (present.length > 0 && present.every((v) => v instanceof Date)) return "TIMESTAMP";
  return "VARCHAR";
}

/** Unique, non-blank column names from the header row. */
export function headerNames(header: XCell[]): string[] {
  const seen = new Map<string, number>();
  return header.map((h, i) => {
    const base = h === null || h === undefined || String(h).trim() === "" ? `column${i + 1}` : String(h).trim();
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}_${n + 1}`;
  });
}

export async function loadXlsx(conn: DuckDBConnection, table: string, filePath: string, filename: string): Promise<void> {
  let rows: XCell[][];
  try {
    rows = (await readSheet(filePath)) as unknown as XCell[][];
  } catch (error) {
    throw new DatasetError(filename, `the workbook could not be read (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (rows.length === 0 || rows[0].every((c) => c === null || c === undefined || c === "")) throw new DatasetError(filename, "the first sheet is empty.");
  const width = Math.max(...rows.map((r) => r.length));
  const names = headerNames(Array.from({ length: width }, (_, i) => rows[0][i]));
  const body = rows.slice(1);
  const kinds = names.map((_, i) => kindOf(body.map((r) => r[i])));
  await conn.run(`CREATE TABLE ${quoteIdent(table)} (${names.map((n, i) => `${quoteIdent(n)} ${kinds[i]}`).join(", ")})`);
  const appender = await conn.createAppender(table);
  for (const row of body) {
    for (let i = 0; i < width; i++) {
      const v = row[i];
      if (v === null || v === undefined || (v === "" && kinds[i] !== "VARCHAR")) appender.appendNull();
      else if (kinds[i] === "DOUBLE") appender.appendDouble(v as number);
      else if (kinds[i] === "BOOLEAN") appender.appendBoolean(v as boolean);
      else if (kinds[i] === "TIMESTAMP") appender.appendTimestamp(timestampValue(BigInt((v as Date).getTime()) * 1000n));
      else appender.appendVarchar(v instanceof Date ? v.toISOString() : String(v));
    }
    appender.endRow();
  }
  appender.closeSync();
}
