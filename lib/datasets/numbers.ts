// The numbers-from-results check: every number written in an analysis output (or a discovery drawn
// from one) must be a value of a stored query result — a cell or a row count — as shown, or rounded
// to the precision written. Query references ([q2]) and numbers inside words (Q3, ana-1-2, 2nd) are
// not figures and are skipped. A number the task's objective itself states ("the top 5") is allowed.
import type { Cell } from "./values";

export interface StoredResult {
  rows: Cell[][];
  rowCount: number;
}

/** The figures written in a text: "1,234.5", "-3", "12.5%" (as 12.5), "1e3" is not one. */
export function numbersIn(text: string): { text: string; value: number }[] {
  const bare = text.replace(/\[[^\]]*\]/g, " ");
  const out: { text: string; value: number }[] = [];
  // Not preceded by a letter, digit, dot, hyphen-after-letter or underscore; not followed by a letter.
  for (const m of bare.matchAll(/(?<![\p{L}\p{N}_.]|[\p{L}\p{N}]-)-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\p{L}\p{N}_]|,\d)|(?<![\p{L}\p{N}_.]|[\p{L}\p{N}]-)-?\d+(?:\.\d+)?(?![\p{L}\p{N}_]|[.,]\d)/gu)) {
    const value = Number(m[0].replace(/,/g, ""));
    if (Number.isFinite(value)) out.push({ text: m[0], value });
  }
  return out;
}

function decimalsOf(text: string): number {
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * True when `written` is `value` as shown, or `value` rounded to the decimals written and within 1% of
 * it: "12.35" and "1,235" stand for 12.3456 and 1234.6, but "5" does not stand for 4.5.
 */
function matches(written: { text: string; value: number }, value: number): boolean {
  if (written.value === value) return true;
  const rounded = Number(value.toFixed(decimalsOf(written.text)));
  return rounded === written.value && Math.abs(written.value - value) <= Math.abs(value) * 0.01;
}

/** Every numeric value the results hold: numeric cells, numbers written in text cells, row counts. */
export function valuesOf(results: StoredResult[]): number[] {
  const values = new Set<number>();
  for (const r of results) {
    values.add(r.rowCount);
    for (const row of r.rows) {
      for (const cell of row) {
        if (typeof cell === "number") values.add(cell);
        else if (typeof cell === "string") for (const n of numbersIn(cell)) values.add(n.value);
      }
    }
  }
  return [...values];
}

/** The figures of `text` that no result holds (and `allowedText`, e.g. the objective, does not state). */
export function unsupportedNumbers(text: string, results: StoredResult[], allowedText = ""): string[] {
  const values = valuesOf(results);
  const allowed = new Set(numbersIn(allowedText).map((n) => n.value));
  const missing: string[] = [];
  for (const n of numbersIn(text)) {
    if (allowed.has(n.value)) continue;
    if (values.some((v) => matches(n, v))) continue;
    if (!missing.includes(n.text)) missing.push(n.text);
  }
  return missing;
}
