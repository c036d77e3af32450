"use client";
// The "Query tree" tab: legend and per-status counts, the outline, and the selected query's details
// (a side panel on wide screens, a bottom sheet on phones).
import { useEffect, useMemo, useState } from "react";
import type { QueryStatus } from "@/lib/types";
import { levelBreadths } from "@/lib/client/estimate";
import { buildQueryTree, pageCountsByQuery, type QueryNode } from "@/lib/client/query-tree";
import { shownWebsiteStatus } from "@/lib/client/sources";
import { buttonClass } from "./button";
import { EmptyState } from "./empty-state";
import { Icon } from "./icons";
import { QueryDetail } from "./query-detail";
import { QueryTree } from "./query-tree";
import { useResearch } from "./research-context";
import { StatusDot } from "./status-badge";

const STATUSES: QueryStatus[] = ["pending", "searching", "scraping", "analyzing", "completed", "failed", "stopped"];
// While a research runs the legend shows every stage, even at 0 (`stopped` only once there are some);
// once it has ended, only the statuses its queries ended in.
const ONLY_WHEN_PRESENT = new Set<QueryStatus>(["stopped"]);

export function QueryTreePanel() {
  const { live, selectedQueryId, selectQuery } = useResearch();
  const r = live.research;
  const running = r.status === "running";
  const roots = useMemo(() => buildQueryTree(r.serp_queries), [r.serp_queries]);
  const counts = useMemo(() => pageCountsByQuery(r.successful_scraped_websites), [r.successful_scraped_websites]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const breadths = useMemo(() => (r.depth && r.breadth ? levelBreadths(r.depth, r.breadth) : []), [r.depth, r.breadth]);

  const byStatus = useMemo(() => {
    const m = new Map<QueryStatus, number>();
    for (const q of r.serp_queries) m.set(q.status, (m.get(q.status) ?? 0) + 1);
    return m;
  }, [r.serp_queries]);

  const selected = selectedQueryId ? r.serp_queries.find((q) => q.query_id === selectedQueryId) ?? null : null;

  useEffect(() => {
    if (!selected) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") selectQuery(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [selected, selectQuery]);

  const pendingChildren = (node: QueryNode | null): number => {
    if (!running) return 0;
    if (!node) return r.breadth ? Math.max(0, r.breadth - roots.length) : 0;
    const q = node.query;
    if (q.status !== "completed" || !r.depth || q.depth >= r.depth) return 0;
    return Math.max(0, (breadths[q.depth] ?? 0) - node.children.length);
  };

  const toggle = (id: string) =>
    setCollapsed((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const parentIds = new Set(r.serp_queries.map((q) => q.parent_query_id).filter((id): id is string => !!id));
  const parents = [...parentIds];
  const maxLevel = r.serp_queries.reduce((m, q) => Math.max(m, q.depth), 0);
  // Collapse every query at `level` or deeper, so levels 1..level stay visible.
  const showLevels = (level: number) =>
    setCollapsed(new Set(r.serp_queries.filter((q) => q.depth >= level && parentIds.has(q.query_id)).map((q) => q.query_id)));

  if (r.serp_queries.length === 0) {
    return running ? (
      <div className="rounded-xl border border-border bg-surface p-4" data-testid="query-tree">
        <QueryTree roots={[]} counts={counts} collapsed={collapsed} onToggle={toggle} selectedId={null} onSelect={selectQuery} pendingChildren={pendingChildren} />
      </div>
    ) : (
      <EmptyState icon="tree" title={r.status === "draft" ? "This research was not started" : "No queries were run"} testid="tree-empty">
        {r.status === "failed"
          ? "The research failed before its first search."
          : r.status === "draft"
            ? "Its clarifying questions were generated, but it was never started. Start a new research from the home page."
            : "This research stopped before its first search."}
      </EmptyState>
    );
  }

  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <section aria-label="Query tree" className="min-w-0 rounded-xl border border-border bg-surface">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-border px-3 py-2.5 sm:px-4">
          <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted" aria-label="Queries by status" data-testid="tree-legend">
            {STATUSES.filter((s) => byStatus.has(s) || (running && !ONLY_WHEN_PRESENT.has(s))).map((s) => (
              <li key={s} className="flex items-center gap-1.5" data-status={s} data-count={byStatus.get(s) ?? 0}>
                <StatusDot status={s} />
                <span className="capitalize">{s}</span>
                <span className="tabular-nums text-subtle">{byStatus.get(s) ?? 0}</span>
              </li>
            ))}
          </ul>
          <div className="flex items-center gap-1">
            {maxLevel > 2 ? (
              <label className="mr-1 flex items-center gap-1.5 text-xs text-muted">
                Show levels
                <select
                  data-testid="show-levels"
                  value=""
                  onChange={(e) => showLevels(Number(e.target.value))}
                  className="h-7 rounded-md border border-border bg-surface px-1.5 text-xs text-fg"
                >
                  <option value="" disabled>
                    …
                  </option>
                  {Array.from({ length: maxLevel }, (_, i) => (
                    <option key={i + 1} value={i + 1}>
                      1–{i + 1}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <button type="button" className={buttonClass("ghost", "sm")} onClick={() => setCollapsed(new Set())} data-testid="expand-all">
              <Icon name="expand" className="size-3.5" /> Expand
            </button>
            <button type="button" className={buttonClass("ghost", "sm")} onClick={() => setCollapsed(new Set(parents))} data-testid="collapse-all">
              <Icon name="collapse" className="size-3.5" /> Collapse
            </button>
          </div>
        </div>
        <div className="p-2 sm:p-3">
          <QueryTree roots={roots} counts={counts} collapsed={collapsed} onToggle={toggle} selectedId={selectedQueryId} onSelect={selectQuery} pendingChildren={pendingChildren} />
        </div>
      </section>

      <aside aria-label="Query details" className="contents lg:block">
        {selected ? (
          <>
            <div className="fixed inset-0 z-30 bg-black/30 lg:hidden" onClick={() => selectQuery(null)} aria-hidden="true" />
            <div className="fixed inset-x-0 bottom-0 z-40 flex max-h-[78dvh] flex-col overflow-hidden rounded-t-2xl border border-border bg-surface shadow-2xl lg:sticky lg:top-20 lg:z-auto lg:max-h-[calc(100dvh-6rem)] lg:rounded-xl lg:shadow-none">
              <QueryDetail
                query={selected}
                parent={selected.parent_query_id ? r.serp_queries.find((q) => q.query_id === selected.parent_query_id) ?? null : null}
                children={r.serp_queries.filter((q) => q.parent_query_id === selected.query_id)}
                websites={r.successful_scraped_websites
                  .filter((w) => w.query_id === selected.query_id)
                  .map((w) => ({ ...w, status: shownWebsiteStatus(w.status, r.status) }))}
                onSelect={selectQuery}
                onClose={() => selectQuery(null)}
              />
            </div>
          </>
        ) : (
          <div className="hidden rounded-xl border border-dashed border-border-strong p-6 text-center text-sm text-muted lg:sticky lg:top-20 lg:block">
            <Icon name="tree" className="mx-auto size-5 text-subtle" />
            <p className="mt-2">Select a query to see its objective, the pages it read and what they yielded.</p>
          </div>
        )}
      </aside>
    </div>
  );
}
