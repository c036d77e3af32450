"use client";
// History: tree researches, Deep Research conversations and quick answers in one list, newest first,
// filtered by kind and status and searched by text (on the server); open any, delete a research.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { ResearchStatus } from "@/lib/types";
import { useHistory } from "@/hooks/use-history";
import { KIND_LABELS, type HistoryKind, type HistoryRow } from "@/lib/client/history";
import { useDeleteResearch } from "@/hooks/use-research-mutations";
import { useNow } from "@/hooks/use-now";
import { formatDateTime, formatRelative } from "@/lib/client/format";
import { buttonClass } from "./button";
import { ConfirmDialog } from "./confirm-dialog";
import { EmptyState } from "./empty-state";
import { Icon } from "./icons";
import { Spinner } from "./spinner";
import { StatusBadge } from "./status-badge";

const KINDS: { value: "" | HistoryKind; label: string }[] = [
  { value: "", label: "All kinds" },
  { value: "tree", label: "Tree research" },
  { value: "deep", label: "Deep research" },
  { value: "answer", label: "Quick answers" },
];

const KIND_STYLE: Record<HistoryKind, string> = {
  tree: "border-border text-muted",
  deep: "border-accent/40 text-accent",
  answer: "border-border text-subtle",
};

const FILTERS: { value: "" | ResearchStatus; label: string }[] = [
  { value: "", label: "All" },
  { value: "running", label: "Running" },
  { value: "completed", label: "Completed" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
  { value: "draft", label: "Drafts" },
];

export function HistoryList() {
  const [kind, setKind] = useState<"" | HistoryKind>("");
  const [status, setStatus] = useState<"" | ResearchStatus>("");
  const [input, setInput] = useState("");
  const [q, setQ] = useState("");
  const [toDelete, setToDelete] = useState<HistoryRow | null>(null);
  const list = useHistory({ kind, status, q });
  const del = useDeleteResearch();
  const now = useNow(true, 30_000);

  useEffect(() => {
    const t = setTimeout(() => setQ(input.trim()), 250);
    return () => clearTimeout(t);
  }, [input]);

  const rows = list.rows;
  const filtered = kind !== "" || status !== "" || q !== "";

  return (
    <div>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">History</h1>
          <p className="mt-1 text-sm text-muted">Every research, deep research and quick answer, newest first.</p>
        </div>
        <Link href="/" className={buttonClass("primary", "md", "mt-3 self-start sm:mt-0 sm:self-auto")}>
          <Icon name="plus" /> New research
        </Link>
      </div>

      <div className="mt-6 flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <div className="flex min-w-0 flex-col gap-2">
        <ChipGroup label="Filter by kind" testId="history-kind" options={KINDS} value={kind} onChange={setKind} />
        <ChipGroup label="Filter by status" testId="history-filter" options={FILTERS} value={status} onChange={setStatus} />
        </div>
        <label className="relative block md:w-72 md:self-start">
          <span className="sr-only">Search by text</span>
          <Icon name="search" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-subtle" />
          <input
            type="search"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            placeholder="Search"
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
        ) : list.error ? (
          <div role="alert" className="rounded-xl border border-danger/30 bg-danger-soft p-4 text-sm text-danger">
            Could not load your history: {list.error.message}{" "}
            <button type="button" className="font-medium underline" onClick={() => list.refetch()}>Retry</button>
          </div>
        ) : rows.length === 0 ? (
          filtered ? (
            <EmptyState icon="search" title="Nothing matches" testid="history-empty">
              Try another search, kind or status filter.
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
              <li
                key={`${r.kind}:${r.id}`}
                data-testid="history-row"
                data-kind={r.kind}
                data-id={r.id}
                data-research-id={r.kind === "tree" ? r.id : undefined}
                data-status={r.status}
                className="group relative flex items-center gap-3 px-4 py-3.5 hover:bg-surface-2/60"
              >
                <div className="min-w-0 flex-1">
                  <Link href={r.href} className="line-clamp-2 break-words text-[15px] font-medium leading-snug after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:outline focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-ring" data-testid="history-open">
                    <span className="sr-only">{KIND_LABELS[r.kind]}: </span>
                    {r.title}
                  </Link>
                  <div className="mt-1.5 flex flex-wrap items-center gap-x-2.5 gap-y-1 text-xs text-muted">
                    <span aria-hidden="true" data-testid="history-kind" className={`rounded border px-1.5 py-px text-[11px] font-medium ${KIND_STYLE[r.kind]}`}>{KIND_LABELS[r.kind]}</span>
                    <StatusBadge status={r.status as ResearchStatus} />
                    <time dateTime={r.createdAt} title={formatDateTime(r.createdAt)}>{formatRelative(r.createdAt, now)}</time>
                    {r.detail ? <span className="tabular-nums">{r.detail}</span> : null}
                  </div>
                </div>
                {r.kind === "tree" ? (
                  <button
                    type="button"
                    onClick={() => setToDelete(r)}
                    aria-label={`Delete research: ${r.title.slice(0, 60)}`}
                    data-testid="delete-research"
                    className="relative z-10 grid size-9 shrink-0 place-items-center rounded-lg text-subtle transition-colors hover:bg-danger-soft hover:text-danger"
                  >
                    <Icon name="trash" />
                  </button>
                ) : null}
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
            <span className="line-clamp-3 font-medium text-fg">“{toDelete?.title}”</span>
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
        onConfirm={() => toDelete && del.mutate(toDelete.id, { onSuccess: () => setToDelete(null) })}
      />
    </div>
  );
}

/** A row of filter chips that picks one value ("" for all). */
function ChipGroup<T extends string>({ label, testId, options, value, onChange }: {
  label: string;
  testId: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1 md:pb-0">
      {options.map((o) => (
        <button
          key={o.value || "all"}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          data-testid={`${testId}-${o.value || "all"}`}
          onClick={() => onChange(o.value)}
          className={`shrink-0 rounded-full border px-3 py-1 text-[13px] font-medium transition-colors ${
            value === o.value ? "border-accent/50 bg-accent-soft text-accent" : "border-border text-muted hover:text-fg"
          }`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
