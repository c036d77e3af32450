"use client";
// The analyses as a notebook, in the page's main column: each ANALYSIS task with its objective, the
// datasets it read (and how each was read), its write-up as Markdown whose "[q1]" citations link to
// the cells, and a cell per query it ran — the SQL, the result table (sortable, paged) and the chart
// over it. A citation scrolls to its cell and focuses it, without widening or jumping the page.
import { memo, useMemo, type MouseEvent, type ReactNode } from "react";
import { Markdown } from "../markdown";
import { analysisArtifactsOf, type DrDataset, type DrTask } from "@/lib/client/deep-research-state";
import { datasetReadAs } from "@/lib/client/dataset-read-as";
import { formatDuration } from "@/lib/client/format";
import { linkQueryCitations, parseAnalysisSourceUrl, queryAnchor } from "@/lib/exports/query-links";
import { linkTarget } from "@/lib/knowledge/source-url";
import { QueryResult } from "./query-result";

/** The id of a query's cell on the page: `query-ana-1-1-q1`, its anchor in an export too (a write-up's citation of it links there). */
export const queryCellId = queryAnchor;
const CELL_HREF = "#query-";

/** Scrolls to a cell and focuses it (its outline shows where the citation led). */
export function showCell(id: string) {
  const el = document.getElementById(id);
  if (!el) return;
  el.scrollIntoView({ block: "start" });
  el.focus({ preventScroll: true });
}

function CellLink({ href, children }: { href: string; children: ReactNode }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    showCell(href.slice(1));
  };
  return (
    <a href={href} onClick={click} data-testid="dr-query-link" data-target={href.slice(1)} className="rounded bg-surface-2 px-1 font-mono text-[0.9em] text-accent no-underline hover:underline">
      {children}
      <span className="sr-only"> (show the query)</span>
    </a>
  );
}

/** Links in Markdown that may cite a query: to its cell on this page; any other opens in a new tab. */
export function renderQueryLink({ href, children }: { href?: string; children: ReactNode }) {
  const target = href ? linkTarget(href) : href;
  if (!target?.startsWith(CELL_HREF)) return <a href={target} target="_blank" rel="noreferrer noopener">{children}</a>;
  // A source list's entry shows the query's URL as its text: it reads as the query instead.
  const query = href ? parseAnalysisSourceUrl(href) : null;
  const text = query && (children === href || (Array.isArray(children) && children.length === 1 && children[0] === href)) ? `query ${query.queryId} of ${query.taskId}` : children;
  return <CellLink href={target}>{text}</CellLink>;
}

function timing(t: DrTask): string {
  if (!t.startedAt) return "";
  const end = t.endedAt ? Date.parse(t.endedAt) : null;
  return end ? formatDuration(end - Date.parse(t.startedAt)) : "running";
}

const STATUS: Record<string, string> = { completed: "text-[color:var(--st-completed-text)]", failed: "text-danger", running: "text-accent" };

const AnalysisEntry = memo(function AnalysisEntry({ t, datasets }: { t: DrTask; datasets: DrDataset[] }) {
  const a = analysisArtifactsOf(t);
  const queries = useMemo(() => a?.queries ?? [], [a]);
  const ran = useMemo(() => new Set(queries.filter((q) => q.ok).map((q) => q.id)), [queries]);
  const output = useMemo(() => (t.output ? linkQueryCitations(t.output, ran, (q) => `#${queryCellId(t.id, q)}`) : ""), [t.output, t.id, ran]);
  const used = (t.datasetFilenames.length ? t.datasetFilenames : (a as { datasets?: { filename: string }[] } | null)?.datasets?.map((d) => d.filename) ?? [])
    .map((name) => ({ name, d: datasets.find((d) => d.filename === name) }));
  const headingId = `dr-analysis-h-${t.id}`;
  return (
    <article id={`dr-analysis-${t.id}`} tabIndex={-1} aria-labelledby={headingId} data-testid="dr-analysis" data-task-id={t.id} data-status={t.status} className="min-w-0 scroll-mt-20 rounded-xl border border-border bg-surface px-4 py-3 outline-none focus:ring-2 focus:ring-accent/40">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="rounded bg-surface-2 px-1.5 py-0.5 font-mono">{t.id}</span>
        <span className="font-medium uppercase tracking-wide text-muted">Analysis</span>
        <span className={`font-medium capitalize ${STATUS[t.status] ?? "text-muted"}`}>{t.status}</span>
        <span className="ml-auto tabular-nums text-muted">{timing(t)}</span>
      </div>
      <h3 id={headingId} className="mt-1 break-words text-base font-semibold">{t.objective}</h3>
      {used.length ? (
        <ul className="mt-1 grid gap-0.5 text-xs text-muted" data-testid="dr-analysis-datasets" aria-label="Datasets read">
          {used.map(({ name, d }) => (
            <li key={name} className="break-words">
              <span className="font-medium text-fg">{name}</span>
              {d?.table ? <> · table <span className="font-mono">{d.table}</span></> : null}
              {" · "}read as {datasetReadAs(name, d?.readAs)}
            </li>
          ))}
        </ul>
      ) : null}
      {output ? (
        <div className="mt-3 min-w-0 [&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto" data-testid="dr-analysis-writeup">
          <Markdown className="prose-report text-sm" renderLink={renderQueryLink}>{output}</Markdown>
        </div>
      ) : t.error ? <p className="mt-2 text-sm text-danger">{t.error}</p> : t.status === "running" ? <p className="mt-2 text-sm text-muted">Running its queries…</p> : null}
      {queries.length ? (
        <ol className="mt-3 grid gap-4" aria-label={`Queries of ${t.id}`}>
          {queries.map((q) => (
            <li key={q.id} className="min-w-0">
              <section
                id={queryCellId(t.id, q.id)}
                tabIndex={-1}
                aria-labelledby={`${queryCellId(t.id, q.id)}-h`}
                data-testid="dr-cell"
                data-query-id={q.id}
                className="min-w-0 scroll-mt-20 rounded-lg border border-border px-3 py-2 outline-none focus-visible:ring-2 focus:border-accent focus:ring-2 focus:ring-accent/40"
              >
                <h4 id={`${queryCellId(t.id, q.id)}-h`} className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">
                  Query <span className="font-mono normal-case">{q.id}</span><span className="sr-only"> of {t.id}</span>{q.ok ? "" : " · failed"}
                </h4>
                <QueryResult q={q} chart={a?.chart?.queryId === q.id ? a.chart.spec : null} label={`Result of query ${q.id} of ${t.id}`} />
              </section>
            </li>
          ))}
        </ol>
      ) : null}
    </article>
  );
});

export const AnalysisNotebook = memo(function AnalysisNotebook({ plan, datasets }: { plan: DrTask[]; datasets: DrDataset[] }) {
  // Oldest first, as a notebook reads; only analyses that ran or are running.
  const tasks = useMemo(() => plan.filter((t) => t.type === "ANALYSIS" && t.status !== "pending" && t.status !== "skipped").sort((a, b) => a.level - b.level || a.id.localeCompare(b.id, "en", { numeric: true })), [plan]);
  if (tasks.length === 0) return null;
  return (
    <section aria-labelledby="dr-nb-h" data-testid="dr-notebook" className="min-w-0">
      <h2 id="dr-nb-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Analyses <span className="font-normal">({tasks.length})</span></h2>
      <div className="mt-2 grid gap-4">{tasks.map((t) => <AnalysisEntry key={t.id} t={t} datasets={datasets} />)}</div>
    </section>
  );
});
