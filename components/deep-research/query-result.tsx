"use client";
// One stored query of an analysis task, shown as literature evidence shows its quote: the SQL, the
// result table (sortable, paged: every row kept), its row count and time, and the chart drawn over it
// when there is one. The notebook (notebook.tsx) shows each of a task's queries as a cell of this.
import type { DrCell, DrChartSpec } from "@/lib/client/deep-research-state";
import { DataTable } from "./data-table";
import { ResultChart } from "./result-chart";

export function ResultTable({ columns, rows, label = "Result rows" }: { columns: string[]; rows: DrCell[][]; label?: string }) {
  return <DataTable columns={columns} rows={rows} label={label} />;
}

export interface ShownQuery { id?: string; queryId?: string; sql: string; columns: string[]; rows: DrCell[][]; rowCount: number; truncated?: boolean; durationMs: number; ok?: boolean; error?: string | null }

/** "4 rows · 3 ms", and how many of them the page has when the result kept only the first. */
export function queryMeta(q: ShownQuery): string {
  const rows = `${q.rowCount.toLocaleString("en")} ${q.rowCount === 1 ? "row" : "rows"}`;
  const kept = q.rowCount > q.rows.length ? ` (the first ${q.rows.length.toLocaleString("en")} kept)` : "";
  return `${rows}${kept} · ${q.durationMs.toLocaleString("en")} ms`;
}

export function QueryResult({ q, chart, label }: { q: ShownQuery; chart?: DrChartSpec | null; label?: string }) {
  const id = q.queryId ?? q.id;
  return (
    <div data-testid="dr-query" data-query-id={id} className="grid min-w-0 gap-1.5">
      <pre className="max-w-full overflow-x-auto whitespace-pre-wrap break-words rounded bg-surface-2 px-2 py-1 font-mono text-xs" data-testid="dr-query-sql"><code>{q.sql}</code></pre>
      {q.ok === false ? (
        <p className="text-xs text-danger" data-testid="dr-query-error">Refused or failed: {q.error}</p>
      ) : (
        <>
          <ResultTable columns={q.columns} rows={q.rows} label={label ?? `Result of query ${id ?? ""}`.trim()} />
          <p className="text-xs text-muted" data-testid="dr-query-meta">
            {id ? <span className="font-mono">[{id}] </span> : null}
            {queryMeta(q)}
          </p>
        </>
      )}
      {chart ? <ResultChart spec={chart} /> : null}
    </div>
  );
}
