// An analysis task's stored queries as evidence: each successful query is an item with the id
// "<task>:<query>" (ana-1-2:q3), shown to the discovery agent under a handle (agents/snippets.ts)
// with its SQL and result rows, and resolved back to the SQL, the result and the chart for the
// conversation's view.
import { parseJson } from "../db/json";
import { analysisSourceUrl } from "../exports/query-links";
import type { SourceText } from "../verification/verify-report";
import type { StoredQuery } from "./agents/analysis";
import type { StoredChart } from "./agents/analysis-chart";
import type { EvidenceItem } from "./agents/snippets";

export interface AnalysisArtifacts {
  kind: "analysis";
  datasets: { filename: string; table: string }[];
  queries: StoredQuery[];
  chart: StoredChart | null;
  repairs: { unsupported: string[] }[];
  removedSentences: string[];
}

export function analysisArtifacts(artifacts: string | null | undefined): AnalysisArtifacts | null {
  const a = parseJson<Partial<AnalysisArtifacts> | null>(artifacts, null);
  return a && a.kind === "analysis" && Array.isArray(a.queries) ? (a as AnalysisArtifacts) : null;
}

const ROWS_IN_ITEM = 12;

function resultText(q: StoredQuery): string {
  const lines = [q.columns.join(" | "), ...q.rows.slice(0, ROWS_IN_ITEM).map((r) => r.map((c) => (c === null ? "NULL" : String(c))).join(" | "))];
  return `SQL: ${q.sql}\nResult (${q.rowCount} rows):\n${lines.join("\n")}`;
}

/** The successful queries of analysis tasks, as discovery evidence (no URL: a discovery's evidence links only pages). */
export function analysisItems(tasks: { taskKey: string; type: string; status: string; artifacts: string }[]): EvidenceItem[] {
  return analysisSources(tasks).items.map((item) => ({ ...item, url: "" }));
}

/** Result rows a query's source text holds for verifying the sentences that cite it. */
const ROWS_IN_SOURCE = 50;

const value = (c: unknown) => (c === null || c === undefined ? "NULL" : String(c));

/**
 * A query as a source the write-up cites, verified like a page: its SQL, then each result row as
 * "column = value" pairs, so that a row quoted as evidence carries what its figures measure.
 */
function querySourceText(q: StoredQuery): string {
  const rows = q.rows.slice(0, ROWS_IN_SOURCE).map((r, i) => `Row ${i + 1}: ${q.columns.map((c, j) => `${c} = ${value(r[j])}`).join("; ")}.`);
  const more = q.rowCount > rows.length ? `\n(${q.rowCount - rows.length} more rows not shown.)` : "";
  return `The query ${q.id} ran this SQL:\n${q.sql}\nIts result has ${q.rowCount} row${q.rowCount === 1 ? "" : "s"}.\n${rows.join("\n")}${more}`;
}

/**
 * The successful queries of analysis tasks as sources a write-up cites: each item under its query's source
 * URL (analysisSourceUrl: cited and numbered like a page's; the conversation page links it to the query's
 * cell), and the query's SQL and result as the text its citations are verified against.
 */
export function analysisSources(tasks: { taskKey: string; type: string; status: string; artifacts: string }[]): { items: EvidenceItem[]; pages: Map<string, SourceText> } {
  const items: EvidenceItem[] = [];
  const pages = new Map<string, SourceText>();
  for (const t of tasks) {
    if (t.type !== "ANALYSIS" || t.status !== "completed") continue;
    for (const q of analysisArtifacts(t.artifacts)?.queries ?? []) {
      if (!q.ok) continue;
      const url = analysisSourceUrl(t.taskKey, q.id);
      items.push({ id: `${t.taskKey}:${q.id}`, taskKey: t.taskKey, content: resultText(q), url, result: { rows: q.rows, rowCount: q.rowCount, columns: q.columns, sql: q.sql } });
      pages.set(url, { title: `Query ${q.id} of analysis ${t.taskKey}`, text: querySourceText(q) });
    }
  }
  return { items, pages };
}

export interface QueryEvidence {
  queryId: string;
  sql: string;
  columns: string[];
  rows: StoredQuery["rows"];
  rowCount: number;
  truncated: boolean;
  durationMs: number;
  chart: Record<string, unknown> | null;
}

/** The stored query an evidence item id points at, with the task's chart when it is over that query. */
export function queryEvidence(tasks: { taskKey: string; artifacts: string }[], itemId: string): QueryEvidence | null {
  const m = /^(.+):(q\d+)$/.exec(itemId);
  if (!m) return null;
  const task = tasks.find((t) => t.taskKey === m[1]);
  const a = task ? analysisArtifacts(task.artifacts) : null;
  const q = a?.queries.find((x) => x.id === m[2] && x.ok);
  if (!a || !q) return null;
  return { queryId: q.id, sql: q.sql, columns: q.columns, rows: q.rows, rowCount: q.rowCount, truncated: q.truncated, durationMs: q.durationMs, chart: a.chart?.queryId === q.id ? a.chart.spec : null };
}
