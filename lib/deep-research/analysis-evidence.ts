// An analysis task's stored queries as evidence: each successful query is an item with the id
// "<task>:<query>" (ana-1-2:q3), shown to the discovery agent under a handle (agents/snippets.ts)
// with its SQL and result rows, and resolved back to the SQL, the result and the chart for the
// conversation's view.
import { parseJson } from "../db/json";
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

/** The successful queries of analysis tasks, as discovery evidence. */
export function analysisItems(tasks: { taskKey: string; type: string; status: string; artifacts: string }[]): EvidenceItem[] {
  return tasks.flatMap((t) => {
    if (t.type !== "ANALYSIS" || t.status !== "completed") return [];
    const a = analysisArtifacts(t.artifacts);
    return (a?.queries ?? []).filter((q) => q.ok).map((q) => ({
      id: `${t.taskKey}:${q.id}`, taskKey: t.taskKey, content: resultText(q), url: "", result: { rows: q.rows, rowCount: q.rowCount, columns: q.columns, sql: q.sql },
    }));
  });
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
