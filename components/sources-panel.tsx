"use client";
// The "Sources" tab: every URL the research touched, its status, title, and what it yielded.
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { hostname } from "@/lib/client/format";
import { groupSources, type SourceEntry } from "@/lib/client/sources";
import { EmptyState } from "./empty-state";
import { Icon } from "./icons";
import { useWebsiteItems } from "@/hooks/use-website-items";
import { useResearch } from "./research-context";
import { StatusBadge, StatusDot } from "./status-badge";

type Filter = "all" | "analyzed" | "failed" | "active" | "stopped";
const FILTERS: { value: Filter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "analyzed", label: "Analysed" },
  { value: "active", label: "In progress" },
  { value: "failed", label: "Failed" },
  { value: "stopped", label: "Stopped" },
];

function matches(e: SourceEntry, f: Filter): boolean {
  if (f === "all") return true;
  if (f === "analyzed" || f === "failed" || f === "stopped") return e.status === f;
  return e.status !== "analyzed" && e.status !== "failed" && e.status !== "stopped";
}

export function SourcesPanel() {
  const { live } = useResearch();
  const r = live.research;
  const { websites } = useWebsiteItems(r, true);
  const sources = useMemo(() => groupSources(websites, r.serp_queries, r.status), [websites, r.serp_queries, r.status]);
  const [filter, setFilter] = useState<Filter>("all");
  const [q, setQ] = useState("");
  const needle = q.trim().toLowerCase();
  const shown = sources.filter((s) => matches(s, filter) && (!needle || s.url.toLowerCase().includes(needle) || (s.title ?? "").toLowerCase().includes(needle)));

  if (sources.length === 0) {
    return (
      <EmptyState icon="list" title="No sources yet" testid="sources-empty">
        Pages appear here as soon as the first searches return.
      </EmptyState>
    );
  }

  return (
    <section aria-label="Sources" className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div role="radiogroup" aria-label="Filter sources" className="flex flex-wrap gap-1">
          {FILTERS.map((f) => {
            const n = sources.filter((s) => matches(s, f.value)).length;
            // Stopped pages exist only after a failure or a cancel.
            if (f.value === "stopped" && n === 0 && filter !== "stopped") return null;
            // Nothing is in progress once the research has ended.
            if (f.value === "active" && n === 0 && filter !== "active" && r.status !== "running") return null;
            return (
              <button
                key={f.value}
                type="button"
                role="radio"
                aria-checked={filter === f.value}
                onClick={() => setFilter(f.value)}
                data-testid={`sources-filter-${f.value}`}
                className={`rounded-full border px-3 py-1 text-xs font-medium transition-colors ${
                  filter === f.value ? "border-accent/50 bg-accent-soft text-accent" : "border-border text-muted hover:text-fg"
                }`}
              >
                {f.label} <span className="font-normal tabular-nums">{n}</span>
              </button>
            );
          })}
        </div>
        <label className="relative block sm:w-64">
          <span className="sr-only">Search sources</span>
          <Icon name="search" className="pointer-events-none absolute left-2.5 top-1/2 size-3.5 -translate-y-1/2 text-subtle" />
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="Filter by title or URL"
            data-testid="sources-search"
            className="h-8 w-full rounded-lg border border-border bg-surface pl-8 pr-3 text-sm outline-none placeholder:text-subtle focus:border-accent focus:ring-2 focus:ring-accent/20"
          />
        </label>
      </div>

      <p className="text-xs text-muted" data-testid="sources-counts" data-sources-read={sources.filter((s) => s.status === "analyzed").length}>
        {sources.filter((s) => s.status === "analyzed").length} sources read of {sources.length} found · {r.successful_scraped_websites.filter((w) => w.status === "analyzed").length} page analyses
        (a page several queries read is one source)
      </p>

      {shown.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border-strong px-4 py-8 text-center text-sm text-muted">No sources match.</p>
      ) : (
        <ul className="divide-y divide-border overflow-hidden rounded-xl border border-border bg-surface" data-testid="sources-list">
          {shown.map((s) => (
            <SourceRow key={s.url} source={s} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SourceRow({ source: s }: { source: SourceEntry }) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const { live, selectQuery } = useResearch();
  const detailsId = `src-${s.url.replace(/[^a-z0-9]/gi, "").slice(-40)}`;
  return (
    <li data-testid="source-row" data-status={s.status} data-url={s.url}>
      <div className="flex items-start gap-3 px-3 py-3 sm:px-4">
        <StatusDot status={s.status} className="mt-1.5 size-2" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={s.title ?? undefined}>{s.title || hostname(s.url)}</p>
          <a href={s.url} target="_blank" rel="noreferrer noopener" className="block truncate text-xs text-accent hover:underline">
            {s.url}
          </a>
          {s.errors.length > 0 && s.status === "failed" ? <p className="mt-1 text-xs text-danger">{s.errors[0]}</p> : null}
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1">
          <StatusBadge status={s.status} />
          <button
            type="button"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls={detailsId}
            className="inline-flex items-center gap-0.5 text-xs text-muted hover:text-fg"
            data-testid="source-toggle"
          >
            {s.findings} {s.findings === 1 ? "finding" : "findings"}
            <Icon name="chevronDown" className={`size-3.5 transition-transform ${open ? "rotate-180" : ""}`} />
          </button>
        </div>
      </div>
      {open ? (
        <div id={detailsId} className="space-y-3 border-t border-border bg-surface-2/40 px-4 py-3 sm:pl-9">
          {s.textPending ? (
            <p className="text-[13px] text-muted">Loading findings…</p>
          ) : s.items.length > 0 ? (
            <ul className="space-y-1.5">
              {s.items.map((it, i) => (
                <li key={i} data-testid="source-finding" className="flex gap-2 text-[13px] leading-relaxed">
                  <span aria-hidden="true" className="mt-2 size-1 shrink-0 rounded-full bg-accent" />
                  <span className="min-w-0 break-words">{it.content}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-[13px] text-muted">
              {s.status === "stopped"
                ? "Not analysed: the research stopped first. Resuming it continues here."
                : `Nothing extracted${s.status === "analyzed" ? " — the page had nothing on the objective" : ""}.`}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-1.5 text-xs">
            <span className="text-subtle">Read for</span>
            {s.uses.map(({ website, query }) => (
              <button
                key={website.id}
                type="button"
                onClick={() => {
                  selectQuery(website.query_id);
                  router.push(`/research/${live.research.research_id}`, { scroll: false });
                }}
                className="max-w-full truncate rounded-full border border-border bg-surface px-2 py-0.5 text-muted hover:border-accent/40 hover:text-fg"
                title={query?.text}
              >
                {query?.text ?? "a query"}
              </button>
            ))}
          </div>
        </div>
      ) : null}
    </li>
  );
}
