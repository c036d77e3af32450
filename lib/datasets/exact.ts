// Numbers kept exact. DuckDB's readers type a column DOUBLE when it holds an integer too big for
// BIGINT (123456789012345678901234) or integers beside decimals (9007199254740993 and 1.5), and a
// double keeps only 15–17 significant digits: such a column would lose digits silently. Each DOUBLE
// column of a loaded text file is read again as text; one with a value of more than 15 significant
// digits becomes HUGEINT (all integers), DECIMAL(38, s) (all plain decimals that fit) or, failing
// both, VARCHAR — its digits as written, never rounded.
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "./sql-guard";

/** A column's new type, or null to keep DOUBLE. */
export interface Widening {
  column: string;
  type: string;
}

/** The SQL of one column's statistics over its text: plain, integer, significant digits, digits before and after the point. */
function statsSql(column: string, i: number): string {
  const v = `trim(${quoteIdent(column)})`;
  const s = `regexp_replace(${v}, '^[+-]', '')`;
  const plain = `regexp_full_match(${s}, '[0-9]+(\\.[0-9]*)?|\\.[0-9]+')`;
  const whole = `ltrim(split_part(${s}, '.', 1), '0')`;
  const frac = `split_part(${s}, '.', 2)`;
  const significant = `length(ltrim(${whole} || rtrim(${frac}, '0'), '0'))`;
  const empty = `(${v} IS NULL OR ${v} = '')`;
  return [
    `bool_or(${plain} AND ${significant} > 15) AS risky${i}`,
    `bool_and(${empty} OR regexp_full_match(${s}, '[0-9]+')) AS ints${i}`,
    `bool_and(${empty} OR ${plain}) AS plains${i}`,
    `max(CASE WHEN ${plain} THEN length(${whole}) END) AS whole${i}`,
    `max(CASE WHEN ${plain} THEN length(${frac}) END) AS scale${i}`,
  ].join(", ");
}

/**
 * The DOUBLE columns of `doubles` that must change type to stay exact, judged over `textSource`: a
 * FROM clause reading the same file with those columns as VARCHAR.
 */
export async function wideningsFor(conn: DuckDBConnection, textSource: string, doubles: string[]): Promise<Widening[]> {
  if (doubles.length === 0) return [];
  const row = (await conn.runAndReadAll(`SELECT ${doubles.map(statsSql).join(", ")} FROM ${textSource}`)).getRowObjects()[0];
  const out: Widening[] = [];
  doubles.forEach((column, i) => {
    if (row[`risky${i}`] !== true) return;
    const whole = Number(row[`whole${i}`] ?? 0);
    const scale = Number(row[`scale${i}`] ?? 0);
    if (row[`ints${i}`] === true && whole <= 38) out.push({ column, type: "HUGEINT" });
    else if (row[`plains${i}`] === true && whole + scale <= 38) out.push({ column, type: `DECIMAL(38, ${scale})` });
    else out.push({ column, type: "VARCHAR" });
  });
  return out;
}

/** The select list that casts the widened columns from their text (the rest as read). */
export function widenedSelect(widenings: Widening[]): string {
  if (widenings.length === 0) return "*";
  return `* REPLACE (${widenings.map((w) => `CAST(NULLIF(trim(${quoteIdent(w.column)}), '') AS ${w.type}) AS ${quoteIdent(w.column)}`).join(", ")})`;
}
