"use client";
// History: researches newest first, filtered by status and searched by prompt; open or delete.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { ResearchStatus, ResearchSummary } from "@/lib/types";
import { useResearchList } from "@/hooks/use-research-list";
import { useDeleteResearch } from "@/hooks/use-research-mutations";
import { useNow } from "@/hooks/use-now";
import { formatDateTime, formatRelative } from "@/lib/client/format";
import { buttonClass } from "./button";
import { ConfirmDialog } from "./confirm-dialog";
import { EmptyState } from "./empty-state";
import { Icon } from "./icons";
import { Spinner } from "./spinner";
import { StatusBadge } from "./status-badge";

const FILTERS: { value: "" | ResearchStatus; label: string }[] = [
  { value: "", label: "All" },
  { value: "running", label: "Running" },
  { value: "completed", label: "Completed" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
  { value: "draft", label: "Drafts" },
];

export function HistoryList() {
  const [status, setStatus] = useState<"" | ResearchStatus>("");
  const [input, setInput] = useState("");
  const [q, setQ] = useState("");
  const [toDelete, setToDelete] = useState<ResearchSummary | null>(null);
  const list = useResearchList({ status, q });
  const del = useDeleteResearch();
  const now = useNow(true, 30_000);

  useEffect(() => {
    const t = setTimeout(() => setQ(input.trim()), 250);
    return () => clearTimeout(t);
  }, [input]);

  const rows = list.data?.pages.flatMap((p) => p.researches) ?? [];
  const filtered = status !== "" || q !== "";

  return (
    <div>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">History</h1>
          <p className="mt-1 text-sm text-muted">Every research you have run, newest first.</p>
        </div>
        <Link href="/" className={buttonClass("primary", "md", "mt-3 self-start sm:mt-0 sm:self-auto")}>
          <Icon name="plus" /> New research
        </Link>
      </div>

      <div className="mt-6 flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <div role="radiogroup" aria-label="Filter by status" className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1 md:pb-0">
          {FILTERS.map((f) => (
            <button
              key={f.value || "all"}
              type="button"
              role="radio"
              aria-checked={status === f.value}
              data-testid={`history-filter-${f.value || "all"}`}
              onClick={() => setStatus(f.value)}
              className={`shrink-0 rounded-full border px-3 py-1 text-[13px] font-medium transition-colors ${
                status === f.value ? "border-accent/50 bg-accent-soft text-accent" : "border-border text-muted hover:text-fg"
              }`}
            >
              {f.label}
            </button>
          ))}
        </div>
        <label className="relative block md:w-72">
          <span className="sr-only">Search by prompt</span>
          <Icon name="search" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-subtle" />
          <input
            type="search"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            placeholder="Search prompts"
            data-testid="history-search"
            className="h-9 w-full rounded-lg border border-border bg-surface pl-9 pr-3 text-sm outline-none placeholder:text-subtle focus:border-accent focus:ring-2 focus:ring-accent/20"
          />
          {list.isFetching && !list.isFetchingNextPage ? <Spinner className="absolute right-3 top-1/2 size-3.5 -translate-y-1/2 text-subtle" /> : null}
        </label>
      </div>

      <div className="mt-4">
        {list.isPending ? (
          <ul className="space-y-2" aria-busy="true" aria-label="Loading history">
            {[0, 1, 2, 3].map((i) => (
              <li key={i} className="h-[76px] animate-pulse rounded-xl bg-surface-2" />
            ))}
          </ul>
        ) : list.isError ? (
          <div role="alert" className="rounded-xl border border-danger/30 bg-danger-soft p-4 text-sm text-danger">
            Could not load your history: {list.error.message}{" "}
            <button type="button" className="font-medium underline" onClick={() => list.refetch()}>Retry</button>
          </div>
        ) : rows.length === 0 ? (
          filtered ? (
            <EmptyState icon="search" title="No research matches" testid="history-empty">
              Try another search or status filter.
            </EmptyState>
          ) : (
            <EmptyState
              icon="history"
              title="No research yet"
              testid="history-empty"
              action={
                <Link href="/" className={buttonClass("primary", "md")}>
                  <Icon name="plus" /> Start your first research
                </Link>
              }
            >
              Ask a question and Quarry will search, read and write you a cited report.
            </EmptyState>
          )
        ) : (
          <ul className="divide-y divide-border overflow-hidden rounded-xl border border-border bg-surface" data-testid="history-list">
            {rows.map((r) => (
              <li key={r.research_id} data-testid="history-row" data-research-id={r.research_id} data-status={r.status} className="group relative flex items-center gap-3 px-4 py-3.5 hover:bg-surface-2/60">
                <div className="min-w-0 flex-1">
                  <Link href={`/research/${r.research_id}`} className="line-clamp-2 text-[15px] font-medium leading-snug after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:outline focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-ring" data-testid="history-open">
                    {r.initial_prompt}
                  </Link>
                  <div className="mt-1.5 flex flex-wrap items-center gap-x-2.5 gap-y-1 text-xs text-muted">
                    <StatusBadge status={r.status} />
                    <time dateTime={r.created_at} title={formatDateTime(r.created_at)}>{formatRelative(r.created_at, now)}</time>
                    {r.depth && r.breadth ? (
                      <span title="depth × breadth" className="tabular-nums">
                        {r.depth} × {r.breadth}
                      </span>
                    ) : null}
                  </div>
                </div>
                <button
                  type="button"
                  onClick={() => setToDelete(r)}
                  aria-label={`Delete research: ${r.initial_prompt.slice(0, 60)}`}
                  data-testid="delete-research"
                  className="relative z-10 grid size-9 shrink-0 place-items-center rounded-lg text-subtle transition-colors hover:bg-danger-soft hover:text-danger"
                >
                  <Icon name="trash" />
                </button>
              </li>
            ))}
          </ul>
        )}
        {list.hasNextPage ? (
          <div className="mt-4 flex justify-center">
            <button type="button" className={buttonClass("secondary", "md")} onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage} data-testid="history-more">
              {list.isFetchingNextPage ? <Spinner /> : null} Load more
            </button>
          </div>
        ) : null}
      </div>

      <ConfirmDialog
        open={!!toDelete}
        title="Delete this research?"
        description={
          <>
            <span className="line-clamp-3 font-medium text-fg">“{toDelete?.initial_prompt}”</span>
            <span className="mt-2 block">Its query tree, sources and report are deleted for good.{toDelete?.status === "running" ? " It is still running and will be stopped." : ""}</span>
          </>
        }
        confirmLabel="Delete"
        busyLabel="Deleting…"
        busy={del.isPending}
        error={del.error?.message}
        destructive
        onClose={() => {
          setToDelete(null);
          del.reset();
        }}
        onConfirm={() => toDelete && del.mutate(toDelete.research_id, { onSuccess: () => setToDelete(null) })}
      />
    </div>
  );
}
