// The analysis agent: for an ANALYSIS task it writes one SELECT at a time, reads the result the
// engine's sandbox returns (or the error, to fix), and after at most `maxSteps` queries writes its
// output, citing each query it draws on as [q1]. Every number it writes must be a value of the stored
// result it cites, written with that value's row and column (lib/datasets/numbers.ts): output citing
// other numbers is sent back with the list and the reasons to repair, and what is still unsupported
// after the repairs is cut, sentence by sentence — never kept.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, escapeAttr, estimateTokens, tag } from "../../ai/prompts";
import type { ColumnProfile } from "../../datasets/profile";
import type { QueryResult } from "../../datasets/query";
import { figureProblems, sentencesOf, type FigureProblem } from "../../datasets/numbers";
import { asDuckDbSql } from "../../datasets/sql-dialect";
import type { Cell } from "../../datasets/values";
import { chartSpec, type ChartChoice, type StoredChart } from "./analysis-chart";
import { handleField, resolveCitations } from "./choices";
import type { AgentCall } from "./common";

/** The schema of one step: a chart chooses among the successful queries so far (q1, q3 …). */
function stepSchema(okQueryIds: string[]) {
  return z.object({
    thought: z.string().describe("What you have learned so far and what you do next, in a sentence or two"),
    sql: z.string().nullable().describe("The next query: one DuckDB SELECT (or WITH … SELECT) over the dataset tables; null when you write the output instead"),
    output: z.string().nullable().describe("When sql is null: the findings in Markdown. Every number must appear in a query result above, cited with its query id in brackets, e.g. [q2]"),
    chart: z.object({
      queryId: handleField(okQueryIds, "A successful query's id").describe("The id of the successful query whose result the chart shows, e.g. q2"),
      mark: z.enum(["bar", "line", "point"]).describe("bar for categories, line for a series over time or order, point for two measures"),
      x: z.string().describe("A column of that result for the x axis"),
      y: z.string().describe("A column of that result for the y axis"),
      color: z.string().nullable().describe("A column to colour by, or null"),
      title: z.string().describe("The chart's title"),
    }).nullable().describe("Optionally, with the output: one chart over a stored result; null for none"),
  });
}

export interface AnalysisDataset {
  table: string;
  filename: string;
  rowCount: number;
  columns: ColumnProfile[];
  description: string | null;
}

export interface StoredQuery {
  id: string;
  sql: string;
  ok: boolean;
  error: string | null;
  columns: string[];
  rows: Cell[][];
  rowCount: number;
  truncated: boolean;
  durationMs: number;
}

export interface AnalysisResult {
  /** null when no output was written within the steps: the task says so instead of inventing one. */
  output: string | null;
  queries: StoredQuery[];
  chart: StoredChart | null;
  /** Outputs sent back for citing numbers no result holds, and the sentences cut after the last repair. */
  repairs: { unsupported: string[] }[];
  removedSentences: string[];
}

/** Repair rounds for unsupported numbers (beyond the query steps). */
export const MAX_NUMBER_REPAIRS = 2;
/** Rows of each result shown to the model. */
const ROWS_SHOWN = 20;

/**
 * The datasets as the model is shown them, within `budgetTokens` where they can be: what SQL cannot be
 * written without — each table's name and its columns' names and types — is never cut into; the
 * descriptions go first, then the null counts, then a wide table's last columns (named as left out).
 * A prompt held to a small context window still shows every table it may query.
 */
export function renderDatasets(datasets: AnalysisDataset[], budgetTokens = Infinity): string {
  const render = (o: { nulls: boolean; description: boolean; columns?: number }) =>
    datasets.map((d) => {
      const shown = d.columns.slice(0, o.columns ?? d.columns.length);
      const more = d.columns.length - shown.length;
      return tag("dataset", [
        `columns: ${shown.map((c) => `${c.name} ${c.type}${o.nulls ? ` (${c.nulls} nulls)` : ""}`).join(", ")}${more > 0 ? ` (and ${more} more columns not shown)` : ""}`,
        o.description && d.description ? `description: ${d.description}` : "",
      ].filter(Boolean).join("\n"), { table: d.table, file: d.filename, rows: String(d.rowCount) });
    }).join("\n");
  const fits = (text: string) => estimateTokens(text) <= budgetTokens;
  for (const o of [{ nulls: true, description: true }, { nulls: false, description: true }, { nulls: false, description: false }]) {
    const text = render(o);
    if (fits(text)) return text;
  }
  const widest = Math.max(...datasets.map((d) => d.columns.length));
  // The most columns of each table that fit; at least the first few, over the budget if need be.
  let columns = widest;
  while (columns > 4 && !fits(render({ nulls: false, description: false, columns }))) columns = Math.floor(columns * 0.8);
  return render({ nulls: false, description: false, columns });
}

/**
 * A query as the model is shown it: its SQL and its first rows (ROWS_SHOWN), or its error. Within
 * `maxTokens` by showing fewer rows (at least one), the rest counted: a result is never cut mid-row
 * or its tags cut off, which would leave the model a query it cannot read or cite.
 */
function renderResult(q: StoredQuery, maxTokens = Infinity): string {
  const attrs = { id: q.id, status: q.ok ? "ok" : "error", rows: String(q.rowCount), ms: String(q.durationMs) };
  const render = (shown: number) => {
    const body = q.ok
      ? `${tag("sql", q.sql)}\n${tag("result", [q.columns.join(" | "), ...q.rows.slice(0, shown).map((r) => r.map((c) => (c === null ? "NULL" : String(c))).join(" | "))].join("\n") + (q.rowCount > shown ? `\n… ${q.rowCount - shown} more rows` : ""))}`
      : `${tag("sql", q.sql)}\n${tag("error", q.error ?? "")}`;
    return `<query id="${escapeAttr(attrs.id)}" status="${attrs.status}" rows="${attrs.rows}" ms="${attrs.ms}">\n${body}\n</query>`;
  };
  let shown = Math.min(ROWS_SHOWN, q.rows.length);
  let text = render(shown);
  while (shown > 1 && estimateTokens(text) > maxTokens) text = render((shown = Math.max(1, Math.floor(shown / 2))));
  return text;
}

/** The newest results first within the budget, then shown in order. */
function renderQueries(queries: StoredQuery[], budgetTokens: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const q of [...queries].reverse()) {
    const text = renderResult(q, Math.max(200, Math.floor(budgetTokens / 3)));
    if (used + estimateTokens(text) > budgetTokens && kept.length > 0) break;
    used += estimateTokens(text);
    kept.unshift(text);
  }
  return kept.join("\n") || "(no queries yet)";
}

/** The figures no cited result holds, each with why, for the model to repair. */
function problemList(problems: FigureProblem[]): string {
  return [...new Set(problems.map((p) => p.reason))].join("; ");
}

/** Sentences (or list lines) holding an unsupported figure, cut from the text. */
function cutSentences(text: string, problems: FigureProblem[]): { text: string; removed: string[] } {
  const removed: string[] = [];
  const bad = new Set(problems.map((p) => p.sentence));
  const kept = text.split(/\n/).map((line) => sentencesOf(line).filter((s) => {
    if (bad.has(s)) removed.push(s.trim());
    return !bad.has(s);
  }).join(" "));
  return { text: kept.filter((l, i, all) => l.trim() || (i > 0 && all[i - 1].trim())).join("\n").trim(), removed };
}

/**
 * The output's query citations as the queries' ids ("[Q2]", "[query 2]" are [q2]); citations of
 * queries that did not run (or failed) are dropped, as invented snippet ids are.
 */
export function citeQueries(text: string, okQueries: { id: string }[]): string {
  const choices = okQueries.map((q) => ({ handle: q.id, value: q.id }));
  return resolveCitations(text, choices, (cited) => `[${cited.map((c) => c.handle).join(", ")}]`, (t) => /^q\d+$/i.test(t)).text.trim();
}

export async function analyseDatasets({ objective, context, datasets, runQuery, maxSteps, budgetTokens, onUsage, signal }: AgentCall & {
  objective: string;
  datasets: AnalysisDataset[];
  runQuery: (sql: string) => Promise<QueryResult>;
  maxSteps: number;
  budgetTokens: number;
}): Promise<AnalysisResult> {
  const agent = "dr-analysis";
  const system = `${agentHeader(agent)}
Analyse the uploaded datasets for the task's objective with DuckDB SQL. Each turn, either run one query (sql) or, when the
results answer the objective, write the output (sql null). Only one SELECT (or WITH … SELECT) per query, over the tables
listed; file reads, COPY, ATTACH, PRAGMA, SET and the like are refused. A failed query comes back with its error: fix it.
Compute every figure you report in SQL: each number in the output must appear in the result of the query its sentence
cites, as [q1], and be written with its own row's label and column (the region, product … of that row).`;
  const queries: StoredQuery[] = [];
  const repairs: { unsupported: string[] }[] = [];
  let problem: string | null = null;
  let lastOutput: { output: string; chart: ChartChoice | null } | null = null;
  const okResults = () => queries.filter((q) => q.ok);
  const check = (output: string) => figureProblems(output, okResults(), { allowedText: objective, inlineCitations: true });
  const calls = maxSteps + MAX_NUMBER_REPAIRS + 1;
  // The tables take a quarter of the budget where they can (renderDatasets: never cut into), the
  // queries' results the rest, newest first.
  const tables = tag("tables", renderDatasets(datasets, Math.floor(budgetTokens / 4)));
  const queryBudget = Math.max(500, budgetTokens - estimateTokens(tables));
  for (let call = 0; call < calls; call++) {
    const left = maxSteps - queries.length;
    const prompt = [
      tag("objective", objective),
      context,
      tables,
      tag("queries", renderQueries(queries, queryBudget)),
      tag("steps_left", String(left)),
      problem ? tag("problem", problem) : "",
    ].filter(Boolean).join("\n");
    const out = await generateStructured({ agent, schema: stepSchema(okResults().map((q) => q.id)), system, prompt, onUsage, signal });
    problem = null;
    if (out.sql?.trim() && left > 0) {
      const id = `q${queries.length + 1}`;
      // As DuckDB reads it (a fence, a label, MySQL's backticks, a file read by its name: lib/datasets/sql-dialect.ts); stored as run.
      const sql = asDuckDbSql(out.sql, datasets);
      const r = await runQuery(sql);
      queries.push(r.ok
        ? { id, sql, ok: true, error: null, columns: r.columns, rows: r.rows, rowCount: r.rowCount, truncated: r.truncated, durationMs: r.durationMs }
        : { id, sql, ok: false, error: r.error, columns: [], rows: [], rowCount: 0, truncated: false, durationMs: r.durationMs });
      continue;
    }
    if (!out.output?.trim()) {
      problem = left > 0 ? "Reply with either a query (sql) or the output." : "No queries are left: write the output from the results above.";
      continue;
    }
    lastOutput = { output: out.output.trim(), chart: out.chart };
    const problems = check(lastOutput.output);
    if (problems.length === 0) break;
    if (repairs.length >= MAX_NUMBER_REPAIRS) break;
    repairs.push({ unsupported: [...new Set(problems.map((p) => p.figure))] });
    problem = `Your output states numbers that the results it cites do not hold: ${problemList(problems)}. Every number must appear in the result of the query its sentence cites, with that row's label. ${left > 0 ? "Run a query that computes them, or rewrite" : "Rewrite"} the output using only numbers from the results.`;
  }
  if (!lastOutput) return { output: null, queries, chart: null, repairs, removedSentences: [] };
  const still = check(lastOutput.output);
  const { text, removed } = still.length ? cutSentences(lastOutput.output, still) : { text: lastOutput.output, removed: [] };
  const output = citeQueries(text, okResults());
  const chart = lastOutput.chart ? chartSpec(lastOutput.chart, okResults()) : null;
  return { output: output || null, queries, chart, repairs, removedSentences: removed };
}
