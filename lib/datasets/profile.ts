// A loaded table's profile: column names and DuckDB types, row count, nulls per column, and the first
// rows — what the world state, the UI and the analysis agent's prompt show of a dataset.
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "./sql-guard";
import { toCell, type Cell } from "./values";

export interface ColumnProfile {
  name: string;
  type: string;
  nulls: number;
}

export interface TableProfile {
  table: string;
  rowCount: number;
  columns: ColumnProfile[];
  preview: { columns: string[]; rows: Cell[][] };
}

export const PREVIEW_ROWS = 5;

export async function profileTable(conn: DuckDBConnection, table: string): Promise<TableProfile> {
  const t = quoteIdent(table);
  const described = (await conn.runAndReadAll(`DESCRIBE ${t}`)).getRowObjects();
  const columns = described.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  const counts = columns.length === 0 ? [] : (await conn.runAndReadAll(
    `SELECT count(*), ${columns.map((c) => `count(*) - count(${quoteIdent(c.name)})`).join(", ")} FROM ${t}`,
  )).getRows()[0];
  const rowCount = Number(counts[0] ?? 0);
  const previewReader = await conn.runAndReadAll(`SELECT * FROM ${t} LIMIT ${PREVIEW_ROWS}`);
  return {
    table,
    rowCount,
    columns: columns.map((c, i) => ({ ...c, nulls: Number(counts[i + 1] ?? 0) })),
    preview: { columns: previewReader.columnNames(), rows: previewReader.getRows().map((r) => r.map(toCell)) },
  };
}
