"use client";
// A query's result rows as a table: sortable by any column (numbers as numbers, NULL last; the
// header's button says how it sorts, aria-sort tells a screen reader), paged in the browser, and
// scrolling sideways inside its own box (focusable, labelled) so a wide result never widens the page.
import { useMemo, useState } from "react";
import type { DrCell } from "@/lib/client/deep-research-state";
import { sortRows, type RowSort } from "@/lib/client/sort-rows";

export const PAGE_SIZE = 10;

export const showCell = (v: DrCell) => (v === null ? "NULL" : typeof v === "number" ? v.toLocaleString("en", { maximumFractionDigits: 6 }) : String(v));

export function DataTable({ columns, rows, label, pageSize = PAGE_SIZE, testid = "dr-result-table" }: { columns: string[]; rows: DrCell[][]; label: string; pageSize?: number; testid?: string }) {
  const [sort, setSort] = useState<RowSort>(null);
  const [page, setPage] = useState(0);
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const pages = Math.max(1, Math.ceil(sorted.length / pageSize));
  const at = Math.min(page, pages - 1);
  const shown = sorted.slice(at * pageSize, (at + 1) * pageSize);
  const toggle = (col: number) => {
    setSort((s) => (s?.col === col ? (s.dir === "ascending" ? { col, dir: "descending" } : null) : { col, dir: "ascending" }));
    setPage(0);
  };
  const numeric = columns.map((_, c) => rows.some((r) => typeof r[c] === "number") && rows.every((r) => r[c] === null || typeof r[c] === "number"));
  return (
    <div className="grid min-w-0 gap-1">
      <div className="max-w-full overflow-x-auto rounded border border-border" role="region" aria-label={label} tabIndex={0} data-testid="dr-table-scroll">
        <table className="w-full border-collapse text-xs" data-testid={testid}>
          <caption className="sr-only">{label}{sort ? `, sorted by ${columns[sort.col]}, ${sort.dir}` : ""}</caption>
          <thead className="bg-surface-2">
            <tr>
              {columns.map((c, i) => (
                <th key={`${c}-${i}`} scope="col" aria-sort={sort?.col === i ? sort.dir : undefined} className={`whitespace-nowrap px-2 py-1 font-medium ${numeric[i] ? "text-right" : "text-left"}`}>
                  <button type="button" onClick={() => toggle(i)} data-testid="dr-sort" className="inline-flex items-center gap-1 hover:text-accent">
                    {c}
                    <span aria-hidden="true" className="text-muted">{sort?.col === i ? (sort.dir === "ascending" ? "▲" : "▼") : "↕"}</span>
                    <span className="sr-only">{sort?.col === i ? (sort.dir === "ascending" ? " (sorted ascending; sort descending)" : " (sorted descending; unsort)") : " (sort ascending)"}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r, i) => (
              <tr key={at * pageSize + i} className="border-t border-border">
                {columns.map((_, j) => (
                  <td key={j} className={`whitespace-nowrap px-2 py-0.5 ${numeric[j] ? "text-right tabular-nums" : ""} ${r[j] === null ? "italic text-muted" : ""}`}>{showCell(r[j] ?? null)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label={`Pages of ${label}`} className="flex flex-wrap items-center gap-2 text-xs text-muted" data-testid="dr-pager">
          <button type="button" className="rounded border border-border px-2 py-0.5 hover:text-fg disabled:opacity-50" onClick={() => setPage(at - 1)} disabled={at === 0}>Previous<span className="sr-only"> rows</span></button>
          <span data-testid="dr-page-status" aria-live="polite">Rows {(at * pageSize + 1).toLocaleString("en")}–{Math.min(sorted.length, (at + 1) * pageSize).toLocaleString("en")} of {sorted.length.toLocaleString("en")}</span>
          <button type="button" className="rounded border border-border px-2 py-0.5 hover:text-fg disabled:opacity-50" onClick={() => setPage(at + 1)} disabled={at >= pages - 1}>Next<span className="sr-only"> rows</span></button>
        </nav>
      ) : null}
    </div>
  );
}
