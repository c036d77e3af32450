"use client";
// The "Query tree" tab: legend and per-status counts, the outline, and the selected query's details
// (a side panel on wide screens, a bottom sheet on phones).
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { QueryStatus } from "@/lib/types";
import { estimateResearch, levelBreadths } from "@/lib/client/estimate";
import {
  buildQueryTree,
  descendantCounts,
  filterTree,
  levelChoiceLabel,
  pageCountsByQuery,
  reuseTree,
  shownQueries,
  type PageCounts,
  type QueryNode,
  type StatusFilter,
} from "@/lib/client/query-tree";
import { shownWebsiteStatus } from "@/lib/client/sources";
import { buttonClass } from "./button";
import { EmptyState } from "./empty-state";
import { Icon } from "./icons";
import { QueryDetail } from "./query-detail";
import { QueryTree } from "./query-tree";
import { useWebsiteItems } from "@/hooks/use-website-items";
import { useResearch } from "./research-context";
import { StatusDot } from "./status-badge";

const STATUSES: QueryStatus[] = ["pending", "searching", "scraping", "analyzing", "completed", "failed", "stopped"];
// While a research runs the legend shows every stage, even at 0 (`stopped` only once there are some);
// once it has ended, only the statuses its queries ended in.
const ONLY_WHEN_PRESENT = new Set<QueryStatus>(["stopped"]);
/** Above this many planned queries the tree opens with levels 1–2 shown (deeper ones counted on their branch). */
const BIG_TREE = 40;
const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "active", label: "In progress" },
  { value: "completed", label: "Completed" },
  { value: "failed", label: "Failed" },
  { value: "stopped", label: "Stopped" },
];

export function QueryTreePanel() {
  const { live, selectedQueryId, selectQuery } = useResearch();
  const r = live.research;
  const running = r.status === "running";
  // Rendering a big tree waits behind typing and clicks while events stream in.
  const rawQueries = useDeferredValue(r.serp_queries);
  const websites = useDeferredValue(r.successful_scraped_websites);
  const queries = useMemo(() => shownQueries(rawQueries, r.status), [rawQueries, r.status]);
  // Unchanged branches keep their nodes and unchanged queries their counts, so that a batch of
  // events re-renders only the rows it touched (the rows are memoised on them).
  const previousTree = useRef<QueryNode[]>([]);
  const fullTree = useMemo(() => (previousTree.current = reuseTree(buildQueryTree(queries), previousTree.current)), [queries]);
  const sizes = useMemo(() => descendantCounts(fullTree), [fullTree]);
  const previousCounts = useRef<Map<string, PageCounts> | undefined>(undefined);
  const counts = useMemo(() => (previousCounts.current = pageCountsByQuery(websites, previousCounts.current)), [websites]);
  const breadths = useMemo(() => (r.depth && r.breadth ? levelBreadths(r.depth, r.breadth) : []), [r.depth, r.breadth]);
  const planned = r.depth && r.breadth ? estimateResearch(r.depth, r.breadth).queries : queries.length;

  const [search, setSearch] = useState("");
  const [statusFilter, setStatusFilter] = useState<StatusFilter>("all");
  const filtering = search.trim() !== "" || statusFilter !== "all";
  const { roots, matched } = useMemo(() => filterTree(fullTree, search, statusFilter), [fullTree, search, statusFilter]);

  // Collapsing is a rule (every query at level `collapseFrom` or deeper) plus the user's own
  // toggles, so queries that stream in later follow the rule too. A big tree opens at levels 1–2.
  const [collapseFrom, setCollapseFrom] = useState<number | null>(() => (planned > BIG_TREE ? 2 : null));
  const [overrides, setOverrides] = useState<Map<string, boolean>>(new Map());
  const isCollapsed = useCallback(
    (id: string, depth: number) => {
      if (filtering) return false; // a search shows every match in place
      return overrides.get(id) ?? (collapseFrom !== null && depth >= collapseFrom);
    },
    [filtering, overrides, collapseFrom],
  );

  const byStatus = useMemo(() => {
    const m = new Map<QueryStatus, number>();
    for (const q of queries) m.set(q.status, (m.get(q.status) ?? 0) + 1);
    return m;
  }, [queries]);

  const selected = selectedQueryId ? queries.find((q) => q.query_id === selectedQueryId) ?? null : null;
  // The findings' text of an ended research is fetched once a query is opened.
  const { websites: detailWebsites } = useWebsiteItems(r, selected !== null, selected?.query_id);

  useEffect(() => {
    if (!selected) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") selectQuery(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [selected, selectQuery]);

  const rootCount = fullTree.length;
  const pendingChildren = useCallback(
    (node: QueryNode | null): number => {
      if (!running || filtering) return 0;
      if (!node) return r.breadth ? Math.max(0, r.breadth - rootCount) : 0;
      const q = node.query;
      if (q.status !== "completed" || !r.depth || q.depth >= r.depth) return 0;
      return Math.max(0, (breadths[q.depth] ?? 0) - node.children.length);
    },
    [running, filtering, r.breadth, r.depth, rootCount, breadths],
  );

  const toggle = useCallback(
    (id: string, depth: number) =>
      setOverrides((m) => {
        const next = new Map(m);
        next.set(id, !isCollapsed(id, depth));
        return next;
      }),
    [isCollapsed],
  );
  const maxLevel = queries.reduce((m, q) => Math.max(m, q.depth), 0);
  const showLevels = (level: number) => {
    setOverrides(new Map());
    setCollapseFrom(level >= maxLevel ? null : level);
  };
  const levelsShown = overrides.size === 0 ? (collapseFrom === null ? maxLevel : collapseFrom) : null;
  const treeProps = { counts, sizes, isCollapsed, onToggle: toggle, selectedId: selectedQueryId, onSelect: selectQuery, pendingChildren, matched: filtering ? matched : null };

  if (queries.length === 0) {
    return running ? (
      <div className="rounded-xl border border-border bg-surface p-4" data-testid="query-tree">
        <QueryTree roots={[]} {...treeProps} />
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
          <div className="flex flex-wrap items-center gap-1">
            {maxLevel > 1 ? (
              <label className="mr-1 flex items-center gap-1.5 text-xs text-muted">
                Show
                <select
                  data-testid="show-levels"
                  value={levelsShown ?? ""}
                  disabled={filtering}
                  onChange={(e) => showLevels(Number(e.target.value))}
                  className="h-7 rounded-md border border-border bg-surface px-1.5 text-xs text-fg"
                >
                  {levelsShown === null ? <option value="">Custom</option> : null}
                  {Array.from({ length: maxLevel }, (_, i) => (
                    <option key={i + 1} value={i + 1}>
                      {levelChoiceLabel(i + 1, maxLevel)}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {/* Icons only on a phone, so that the toolbar keeps to one line. */}
            <button type="button" className={buttonClass("ghost", "sm")} onClick={() => showLevels(maxLevel)} data-testid="expand-all" aria-label="Expand all">
              <Icon name="expand" className="size-3.5" /> <span className="hidden sm:inline">Expand</span>
            </button>
            <button type="button" className={buttonClass("ghost", "sm")} onClick={() => showLevels(1)} data-testid="collapse-all" aria-label="Collapse all">
              <Icon name="collapse" className="size-3.5" /> <span className="hidden sm:inline">Collapse</span>
            </button>
          </div>
        </div>
        <div className="flex flex-col gap-2 border-b border-border px-3 py-2 sm:flex-row sm:items-center sm:px-4">
          <label className="relative block min-w-0 flex-1">
            <span className="sr-only">Search queries</span>
            <Icon name="search" className="pointer-events-none absolute left-2.5 top-1/2 size-3.5 -translate-y-1/2 text-subtle" />
            <input
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Search queries and objectives"
              data-testid="tree-search"
              className="h-8 w-full rounded-lg border border-border bg-surface pl-8 pr-3 text-sm outline-none placeholder:text-subtle focus:border-accent focus:ring-2 focus:ring-accent/20"
            />
          </label>
          <label className="flex items-center gap-1.5 text-xs text-muted">
            Status
            <select
              data-testid="tree-status-filter"
              value={statusFilter}
              onChange={(e) => setStatusFilter(e.target.value as StatusFilter)}
              className="h-8 rounded-md border border-border bg-surface px-1.5 text-xs text-fg"
            >
              {STATUS_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          {filtering ? (
            <p className="text-xs text-muted sm:w-28 sm:text-right" data-testid="tree-matches" aria-live="polite">
              {matched.size} of {queries.length} match
            </p>
          ) : null}
        </div>
        <div className="p-2 sm:p-3">
          {filtering && roots.length === 0 ? (
            <p className="px-2 py-6 text-center text-sm text-muted" data-testid="tree-no-match">No query matches.</p>
          ) : (
            <QueryTree roots={roots} {...treeProps} />
          )}
        </div>
      </section>

      {/* Stretched to the tree's height so that the sticky panel inside stays in view while the tree scrolls. */}
      <aside aria-label="Query details" className="contents lg:block lg:self-stretch">
        {selected ? (
          <>
            <div className="fixed inset-0 z-30 bg-black/30 lg:hidden" onClick={() => selectQuery(null)} aria-hidden="true" />
            <div className="fixed inset-x-0 bottom-0 z-40 flex max-h-[78dvh] flex-col overflow-hidden rounded-t-2xl border border-border bg-surface shadow-2xl lg:sticky lg:top-20 lg:z-auto lg:max-h-[calc(100dvh-6rem)] lg:rounded-xl lg:shadow-none">
              <QueryDetail
                query={selected}
                parent={selected.parent_query_id ? queries.find((q) => q.query_id === selected.parent_query_id) ?? null : null}
                children={queries.filter((q) => q.parent_query_id === selected.query_id)}
                websites={detailWebsites
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
