"use client";
// Everything about one query: its text and objective, status and timing, the URLs it read (with
// statuses and errors) and what was extracted from each.
import type { SerpQueryView, LiveWebsiteView } from "@/lib/types";
import { formatDuration, hostname } from "@/lib/client/format";
import { Icon } from "./icons";
import { StatusBadge } from "./status-badge";

interface Props {
  query: SerpQueryView;
  parent: SerpQueryView | null;
  children: SerpQueryView[];
  websites: LiveWebsiteView[];
  onSelect: (id: string) => void;
  onClose: () => void;
}

export function QueryDetail({ query: q, parent, children, websites, onSelect, onClose }: Props) {
  const duration = q.started_at ? (q.completed_at ? Date.parse(q.completed_at) : Date.now()) - Date.parse(q.started_at) : null;
  return (
    <article data-testid="query-detail" data-query-id={q.query_id} aria-labelledby="query-detail-title" className="flex min-h-0 flex-1 flex-col">
      <header className="flex items-start gap-3 border-b border-border p-4">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2 text-xs text-subtle">
            <StatusBadge status={q.status} testid="query-detail-status" />
            <span>Level {q.depth}</span>
            {duration != null ? <span>· {formatDuration(duration)}</span> : null}
            {q.prompt_tokens + q.completion_tokens > 0 ? <span>· {q.prompt_tokens + q.completion_tokens} tokens</span> : null}
          </div>
          <h2 id="query-detail-title" data-testid="query-detail-text" className="mt-2 break-words text-[15px] font-semibold leading-snug">
            {q.text}
          </h2>
        </div>
        <button type="button" onClick={onClose} aria-label="Close details" data-testid="query-detail-close" className="grid size-8 shrink-0 place-items-center rounded-md text-subtle hover:bg-surface-2 hover:text-fg">
          <Icon name="x" />
        </button>
      </header>

      <div className="min-h-0 flex-1 space-y-5 overflow-y-auto p-4">
        {q.objective ? (
          <section>
            <h3 className="text-[11px] font-medium uppercase tracking-wide text-subtle">Objective</h3>
            <p className="mt-1 text-sm leading-relaxed" data-testid="query-detail-objective">{q.objective}</p>
          </section>
        ) : null}

        {q.error_message ? (
          <p role="alert" className="rounded-lg border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger" data-testid="query-detail-error">
            {q.error_message}
          </p>
        ) : null}

        {parent || children.length > 0 ? (
          <section className="space-y-1.5 text-sm">
            {parent ? (
              <p className="flex min-w-0 gap-1.5">
                <span className="shrink-0 text-subtle">Follows</span>
                <button type="button" className="min-w-0 truncate text-left text-accent hover:underline" onClick={() => onSelect(parent.query_id)}>
                  {parent.text}
                </button>
              </p>
            ) : null}
            {children.length > 0 ? (
              <p className="text-subtle">
                Led to {children.length} follow-up {children.length === 1 ? "query" : "queries"}
              </p>
            ) : null}
          </section>
        ) : null}

        <section>
          <h3 className="text-[11px] font-medium uppercase tracking-wide text-subtle">
            Pages <span className="tabular-nums">({websites.length})</span>
          </h3>
          {websites.length === 0 ? (
            <p className="mt-2 text-sm text-muted">
              {q.status === "pending" || q.status === "searching"
                ? "Waiting for search results…"
                : q.status === "stopped"
                  ? "The research stopped before this query read any pages. Resuming it continues here."
                  : "No pages for this query."}
            </p>
          ) : (
            <ul className="mt-2 space-y-2.5">
              {websites.map((w) => (
                <li key={w.id} data-testid="query-website" data-status={w.status} className="rounded-lg border border-border bg-surface p-3">
                  <div className="flex items-start justify-between gap-2">
                    <div className="min-w-0">
                      <p className="truncate text-sm font-medium" title={w.title ?? w.url}>{w.title || hostname(w.url)}</p>
                      <a href={w.url} target="_blank" rel="noreferrer noopener" className="block truncate text-xs text-accent hover:underline">
                        {w.url}
                      </a>
                    </div>
                    <StatusBadge status={w.status} className="shrink-0" />
                  </div>
                  {w.error_message ? <p className="mt-2 text-xs text-danger" data-testid="website-error">{w.error_message}</p> : null}
                  {w.items === null && w.item_count > 0 ? <p className="mt-2 border-t border-border pt-2 text-[13px] text-muted">Loading findings…</p> : null}
                  {w.items && w.items.length > 0 ? (
                    <ul className="mt-2 space-y-1.5 border-t border-border pt-2">
                      {w.items.map((it, i) => (
                        <li key={i} className="flex gap-2 text-[13px] leading-relaxed text-muted" data-testid="extracted-item">
                          <span aria-hidden="true" className="mt-2 size-1 shrink-0 rounded-full bg-accent" />
                          <span className="min-w-0 break-words text-fg/90">{it.content}</span>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </article>
  );
}
