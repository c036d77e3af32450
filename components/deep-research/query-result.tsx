// One stored query of an analysis task, shown as literature evidence shows its quote: the SQL, the
// result table (the rows kept), its row count and time, and the chart drawn over it when there is one.
import type { DrCell, DrChartSpec } from "@/lib/client/deep-research-state";
import { ResultChart } from "./result-chart";

const ROWS_SHOWN = 20;

const show = (v: DrCell) => (v === null ? "NULL" : typeof v === "number" ? v.toLocaleString("en", { maximumFractionDigits: 6 }) : String(v));

export function ResultTable({ columns, rows }: { columns: string[]; rows: DrCell[][] }) {
  return (
    <div className="max-h-64 overflow-auto rounded border border-border">
      <table className="w-full border-collapse text-xs" data-testid="dr-result-table">
        <thead className="sticky top-0 bg-surface-2">
          <tr>{columns.map((c) => <th key={c} scope="col" className="px-2 py-1 text-left font-medium">{c}</th>)}</tr>
        </thead>
        <tbody>
          {rows.slice(0, ROWS_SHOWN).map((r, i) => (
            <tr key={i} className="border-t border-border">
              {r.map((v, j) => <td key={j} className={`px-2 py-0.5 ${typeof v === "number" ? "text-right tabular-nums" : ""}`}>{show(v)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function QueryResult({ q, chart }: {
  q: { id?: string; queryId?: string; sql: string; columns: string[]; rows: DrCell[][]; rowCount: number; durationMs: number; ok?: boolean; error?: string | null };
  chart?: DrChartSpec | null;
}) {
  const id = q.queryId ?? q.id;
  return (
    <div data-testid="dr-query" data-query-id={id} className="grid gap-1.5">
      <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded bg-surface-2 px-2 py-1 font-mono text-xs" data-testid="dr-query-sql">{q.sql}</pre>
      {q.ok === false ? (
        <p className="text-xs text-danger" data-testid="dr-query-error">Refused or failed: {q.error}</p>
      ) : (
        <>
          <ResultTable columns={q.columns} rows={q.rows} />
          <p className="text-xs text-muted" data-testid="dr-query-meta">
            {id ? <span className="font-mono">[{id}] </span> : null}
            {q.rowCount.toLocaleString("en")} {q.rowCount === 1 ? "row" : "rows"}{q.rowCount > Math.min(q.rows.length, ROWS_SHOWN) ? ` (first ${Math.min(q.rows.length, ROWS_SHOWN)} shown)` : ""} · {q.durationMs} ms
          </p>
        </>
      )}
      {chart ? <ResultChart spec={chart} /> : null}
    </div>
  );
}
