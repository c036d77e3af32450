// DuckDB values as JSON: what results and previews store. Big integers become numbers when exact
// (else strings), dates and times their ISO text, decimals numbers; nothing is dropped silently.
import type { DuckDBValue } from "@duckdb/node-api";

export type Cell = string | number | boolean | null;

export function toCell(value: DuckDBValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  const text = String(value);
  // DECIMAL values print as their digits: keep them numbers so that a cited figure matches.
  if (value.constructor?.name === "DuckDBDecimalValue") return Number(text);
  return text;
}
