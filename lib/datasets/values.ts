// DuckDB values as JSON: what results and previews store. Integers (BIGINT, HUGEINT) and decimals
// become numbers when a JavaScript number holds them exactly, else their exact digits as text; dates
// and times their ISO text. Nothing is rounded or dropped silently.
import type { DuckDBValue } from "@duckdb/node-api";

export type Cell = string | number | boolean | null;

export function toCell(value: DuckDBValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  const text = String(value);
  // DECIMAL values print as their digits: numbers (so that a cited figure matches) when exact.
  if (value.constructor?.name === "DuckDBDecimalValue") return exactDigits(text) ? Number(text) : text;
  return text;
}

/** True when the decimal text has at most 15 significant digits: a double holds it exactly as written. */
export function exactDigits(text: string): boolean {
  const [whole, frac = ""] = text.replace(/^[+-]/, "").split(".");
  return (whole + frac.replace(/0+$/, "")).replace(/^0+/, "").length <= 15;
}
