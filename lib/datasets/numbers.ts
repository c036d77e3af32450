// The numbers-from-results check: every figure written in an analysis output (or a discovery drawn
// from one) must be a value of the query it cites — a cell or the row count of that query's result,
// in the forms people write it (figures.ts), or a number of the query's own SQL or a date in it or
// its result (a year of its filter) — and the labels it is written with must be its row's and
// column's (labels.ts): "West had 4,079 orders" is wrong when 4,079 is east's count. A sentence's
// figures come from the queries it cites ([q2]); one that cites none takes its line's, then its
// paragraph's, the next paragraph's or the previous one's citations, or the only query there is. A number the objective itself states ("the
// top 5") is allowed. Query references and numbers inside words (Q3, ana-1-2, 2nd) are not figures.
import { cellValues, datePartsIn, numbersIn, stands, writesDecimalComma, type Figure } from "./figures";
import { clauseOf, figureLabels, labelColumns, labelMentions, namesColumn, touchesColumn, type Mention } from "./labels";
import type { Cell } from "./values";

export { numbersIn } from "./figures";

export interface StoredResult {
  rows: Cell[][];
  rowCount: number;
  /** The query's id ([q2]): inline citations name it. */
  id?: string;
  /** The query's SQL: its numbers and dates are the query's too. */
  sql?: string;
  /** The result's column names: a figure written as "orders" must be in the orders column. */
  columns?: string[];
}

export interface FigureProblem {
  figure: string;
  /** The sentence it is written in, as split by `sentencesOf`. */
  sentence: string;
  /** Why it does not stand, for the model to repair. */
  reason: string;
}

export interface CheckOptions {
  /** Text whose numbers are allowed anywhere (the task's objective). */
  allowedText?: string;
  /** Sentences cite their queries inline ([q1]); otherwise every result given is the one cited. */
  inlineCitations?: boolean;
}

/** The sentences of a line: split after . ! ? followed by a space. */
export function sentencesOf(line: string): string[] {
  return line.split(/(?<=[.!?])\s+/);
}

/** The query ids a text cites in brackets: [q2], [Q2, q3], [query 4]. */
export function citedIds(text: string): string[] {
  const ids: string[] = [];
  for (const bracket of text.matchAll(/\[([^\]\n]+)\](?!\()/g)) {
    for (const m of bracket[1].matchAll(/(?<![\p{L}\p{N}])(?:q|query\s*)(\d+)(?![\p{N}])/giu)) {
      const id = `q${Number(m[1])}`;
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

interface Prepared {
  result: StoredResult;
  name: string;
  labels: number[];
  sqlValues: number[];
  years: Set<number>;
  days: Set<number>;
}

function prepare(result: StoredResult, i: number): Prepared {
  const width = Math.max(result.columns?.length ?? 0, ...result.rows.map((r) => r.length));
  const sql = result.sql ?? "";
  const cellDates = result.rows.flat().filter((c): c is string => typeof c === "string").map(datePartsIn);
  const sqlDates = datePartsIn(sql);
  return {
    result,
    name: result.id ?? `result ${i + 1}`,
    labels: labelColumns(result.rows, width),
    // Column positions (GROUP BY 1, ORDER BY 2 DESC) are not figures of the query.
    sqlValues: numbersIn(sql.replace(/\b(?:group|order)\s+by\s+(?:\d+(?:\s+(?:asc|desc))?\s*,?\s*)+/gi, " ")).map((f) => f.value),
    years: new Set([...sqlDates.years, ...cellDates.flatMap((d) => d.years)]),
    days: new Set([...sqlDates.days, ...cellDates.flatMap((d) => d.days)]),
  };
}

/** Why the figure is not a value of the result, or null when it is one (with its labels). */
function judge(figure: Figure, p: Prepared, sentence: string, mentions: Mention[]): string | null {
  // The query's own numbers and dates (its filter's year, its threshold) belong to no row.
  if (p.sqlValues.some((v) => stands(figure, v))) return null;
  if (figure.yearLike && p.years.has(figure.value)) return null;
  if (figure.dayOfMonth && p.days.has(figure.value)) return null;
  const labels = figureLabels(sentence, mentions, figure.index, figure.end);
  const rowFits = (row: Cell[]) => [...labels].every(([c, values]) => values.some((v) => String(row[c] ?? "").trim().toLowerCase() === v.toLowerCase()));
  const columns = p.result.columns ?? [];
  const [cs, ce] = clauseOf(sentence, figure);
  // The column a figure is written as: named in its clause ("4,079 in revenue"), not as a rate's
  // denominator ("12.35 per order") nor for a share ("20.4% of orders").
  const clause = sentence.slice(cs, ce).replace(/\b(?:per|each|every|a|an)\s+[\p{L}_]+/giu, " ");
  const share = figure.readings.length > 1;
  let elsewhere: string | null = null;
  let otherColumn: string | null = null;
  for (const row of p.result.rows) {
    for (let c = 0; c < row.length; c++) {
      if (!cellValues(row[c]).some((v) => stands(figure, v))) continue;
      if (!rowFits(row)) {
        elsewhere ??= p.labels.map((l) => row[l]).filter((v) => v !== null && v !== undefined).join(" / ") || "another row";
        continue;
      }
      // Written as another column's figure: the sentence names a column and shares no word with this one.
      const named = share ? [] : columns.filter((name, j) => j !== c && !p.labels.includes(j) && namesColumn(clause, name));
      if (columns[c] && named.length > 0 && !touchesColumn(clause, columns[c])) {
        otherColumn ??= `${figure.text} is ${columns[c]} in ${p.name}, not ${named[0]}`;
        continue;
      }
      return null;
    }
  }
  // The row count is the whole result's: a figure written with a row's label in its clause is not it.
  if (!mentions.some((m) => m.start >= cs && m.end <= ce) && stands(figure, p.result.rowCount)) return null;
  if (otherColumn) return otherColumn;
  if (elsewhere) {
    const written = [...labels.values()].map((v) => v.join(" or ")).join(" / ");
    return `${figure.text} is ${elsewhere}'s value in ${p.name}, not ${written}'s`;
  }
  return `${figure.text} is not a value of ${p.name}`;
}

/** Every figure of `text` that is not a value of the query it cites, with the sentence and the reason. */
export function figureProblems(text: string, results: StoredResult[], { allowedText = "", inlineCitations = false }: CheckOptions = {}): FigureProblem[] {
  const prepared = results.map(prepare);
  // A text in German or French writes "4.079" and "20,4 %": its figures are read so (the objective's as it is written).
  const decimalComma = writesDecimalComma(text);
  const allowed = numbersIn(allowedText, { decimalComma: writesDecimalComma(allowedText) });
  const problems: FigureProblem[] = [];
  const byId = (ids: string[]) => prepared.filter((p) => p.result.id !== undefined && ids.includes(p.result.id));
  const blocks = text.split(/\n\s*\n/);
  for (const [b, block] of blocks.entries()) {
    for (const line of block.split("\n")) {
      for (const sentence of sentencesOf(line)) {
        const figures = numbersIn(sentence, { decimalComma });
        if (figures.length === 0) continue;
        let scope = prepared;
        if (inlineCitations) {
          // A table or list cited in the paragraph after it ("Source: [q2]") or before it.
          const ids = [sentence, line, block, blocks[b + 1] ?? "", blocks[b - 1] ?? ""].map(citedIds).find((x) => x.length > 0);
          scope = ids ? byId(ids) : prepared.length === 1 ? prepared : [];
        }
        const mentions = scope.map((p) => labelMentions(sentence, p.result.rows, p.labels));
        for (const figure of figures) {
          if (allowed.some((a) => a.value === figure.value)) continue;
          // Digits inside a label ("Route 66") are part of the name, not a figure.
          if (mentions.some((ms) => ms.some((m) => m.start <= figure.index && figure.end <= m.end))) continue;
          if (scope.length === 0) {
            const reason = inlineCitations && prepared.length > 0
              ? `${figure.text} cites no query that ran: cite the query it comes from, e.g. [${prepared[0].name}]`
              : `${figure.text} is not a value of any query result`;
            problems.push({ figure: figure.text, sentence, reason });
            continue;
          }
          const reasons = scope.map((p, i) => judge(figure, p, sentence, mentions[i]));
          if (reasons.some((r) => r === null)) continue;
          problems.push({ figure: figure.text, sentence, reason: reasons.join("; ") });
        }
      }
    }
  }
  return problems;
}

/** The figures of `text` that are not values of the results they cite (each once). */
export function unsupportedNumbers(text: string, results: StoredResult[], allowedText = "", options: Omit<CheckOptions, "allowedText"> = {}): string[] {
  return [...new Set(figureProblems(text, results, { ...options, allowedText }).map((p) => p.figure))];
}
