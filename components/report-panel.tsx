"use client";
// The "Report" tab: the rendered report with a table of contents, citations that show their
// snippets, copy and download; or the draft while it is being written.
import Link from "next/link";
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { useResearchText } from "@/hooks/use-research-text";
import { useWebsiteItems } from "@/hooks/use-website-items";
import { normalizeUrl } from "@/lib/client/format";
import { fingerprint } from "@/lib/fingerprint";
import { extractToc } from "@/lib/client/markdown";
import { hasFindings, reportFromPartialFindings, researchStats } from "@/lib/client/research-stats";
import { itemsByUrl } from "@/lib/client/sources";
import { linkTarget } from "@/lib/knowledge/source-url";
import { citedSourceCount, splitNumberedSources, type NumberedSource } from "@/lib/report-citations";
import type { LiveResearchView } from "@/lib/types";
import { buttonClass } from "./button";
import { CitationLink } from "./citation-link";
import { EmptyState } from "./empty-state";
import { ExportLinks } from "./export-links";
import { Icon } from "./icons";
import { LazyMarkdown } from "./lazy-markdown";
import { useResearch } from "./research-context";
import { ReportToc } from "./report-toc";
import { ReportVerification } from "./report-verification";
import { Spinner } from "./spinner";

/** A completed report rendered on the server (app/research/[id]/report/page.tsx), with the fingerprint of its text. */
export interface PrerenderedReport {
  fingerprint: string;
  body: ReactNode;
}

export function ReportPanel({ prerendered = null }: { prerendered?: PrerenderedReport | null }) {
  const { live } = useResearch();
  const r = live.research;
  // The snapshot carries the report; fetch it only if a finished research arrived without it.
  const fetched = useResearchText(r.links.report, r.status === "completed" && !r.report);
  const report = r.report ?? fetched.data ?? null;
  const draft = live.reportDraft;
  // An ended research's snippets are fetched when the first citation card opens.
  const [wantSnippets, setWantSnippets] = useState(false);
  const { websites } = useWebsiteItems(r, wantSnippets);
  const sources = useMemo(() => itemsByUrl(websites), [websites]);
  const citations = useMemo(() => ({ sources, onOpen: () => setWantSnippets(true) }), [sources]);
  const markdown = report ?? draft;
  const toc = useMemo(() => (markdown ? extractToc(markdown) : []), [markdown]);
  // The stored report ends with its numbered source list; the viewer renders that list itself.
  const numbered = useMemo(() => (report ? splitNumberedSources(report) : { body: draft ?? "", sources: [] as NumberedSource[] }), [report, draft]);
  const numberOf = useMemo(() => new Map(numbered.sources.map((s) => [s.url, s.n])), [numbered.sources]);
  // The server's rendering of this very report, when it has one.
  const serverRendered = useMemo(() => (report && prerendered?.fingerprint === fingerprint(report) ? prerendered.body : null), [report, prerendered]);

  // The sources come through context, so that snippets arriving do not make new link renderers
  // (which would remount the report's links and close an open card).
  const renderLink = useCallback(
    ({ href, children }: { href?: string; children: React.ReactNode }) => (
      <ReportLink href={href} number={href ? numberOf.get(href) : undefined}>
        {children}
      </ReportLink>
    ),
    [numberOf],
  );

  // The rendered report, where the verification marks the claims it flags.
  const articleRef = useRef<HTMLElement>(null);

  if (!markdown) {
    if (r.status === "completed" && fetched.isPending) return <p className="text-sm text-muted">Loading the report…</p>;
    const running = r.status === "running";
    return (
      <EmptyState
        icon="file"
        title={running ? "The report is written when the research is done" : r.status === "failed" ? "No report: the research failed" : "No report was written"}
        testid="report-empty"
        action={
          <Link href={`/research/${r.research_id}`} className={buttonClass("secondary", "md")}>
            <Icon name="tree" /> Watch the query tree
          </Link>
        }
      >
        {running ? "Quarry is still searching and reading. This tab fills in as soon as writing starts." : r.error ?? "This research stopped before writing its report."}
        {(r.status === "failed" || r.status === "cancelled") && hasFindings(r) ? (
          <span className="mt-2 block">Its report can still be written from what it found: use “Write report from findings” above.</span>
        ) : null}
      </EmptyState>
    );
  }

  const writing = !report;
  return (
    <div className="grid gap-6 lg:grid-cols-[13.5rem_minmax(0,1fr)]">
      <ReportToc entries={toc} />
      <div className="min-w-0">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {writing ? (
            <p className="inline-flex items-center gap-2 text-sm text-muted" data-testid="report-writing">
              <Spinner className="size-3.5" /> {live.reportDraftNote ? <span data-testid="report-rewriting">Writing the report again. {live.reportDraftNote}</span> : "Writing the report…"}
            </p>
          ) : (
            <ReportCountsLine research={r} cited={citedSourceCount(report)} />
          )}
          {!writing ? <ReportActions research={r} markdown={report} /> : null}
        </div>
        {!writing && reportFromPartialFindings(r) ? <PartialFindingsNote queries={r.serp_queries} /> : null}
        {!writing ? <ReportVerification href={r.links.verification} article={articleRef} /> : null}
        <article
          ref={articleRef}
          data-testid="report"
          className="rounded-xl border border-border bg-surface px-5 py-6 sm:px-9 sm:py-8"
          aria-busy={writing}
          data-rendered={serverRendered ? "server" : "browser"}
        >
          <Citations.Provider value={citations}>
            {serverRendered ? (
              serverRendered
            ) : (
              <LazyMarkdown renderLink={renderLink}>{writing ? markdown : numbered.body}</LazyMarkdown>
            )}
          </Citations.Provider>
          {!writing && numbered.sources.length > 0 ? <SourceList sources={numbered.sources} /> : null}
        </article>
      </div>
    </div>
  );
}

/** The report covers only what was found before the research stopped (write-report after a failure or cancel). */
function PartialFindingsNote({ queries }: { queries: { status: string }[] }) {
  const done = queries.filter((q) => q.status === "completed").length;
  const stopped = queries.filter((q) => q.status === "stopped").length;
  return (
    <div role="note" data-testid="report-partial" className="mb-3 flex gap-2.5 rounded-xl border border-amber-300/70 bg-warn-soft px-4 py-3 text-sm dark:border-amber-500/30">
      <Icon name="alert" className="mt-0.5 size-4 shrink-0 text-st-paused" />
      <p className="min-w-0">
        <span className="font-medium">Written from partial findings.</span>{" "}
        <span className="text-muted">
          The research stopped before it finished ({done} of {queries.length} queries complete, {stopped} stopped), so this report covers only
          what was found by then.
        </span>
      </p>
    </div>
  );
}

/** What was read and what the report cites, under the names the header and the Sources tab use. */
const Citations = createContext<{ sources: ReturnType<typeof itemsByUrl>; onOpen: () => void }>({ sources: new Map(), onOpen: () => {} });

/** A link in the report: a citation with its hover card when it points at a page that was read. */
export function ReportLink({ href, number, children }: { href?: string; number?: number; children: React.ReactNode }) {
  const { sources, onOpen } = useContext(Citations);
  const source = href && /^https?:/i.test(href) ? sources.get(normalizeUrl(href)) : undefined;
  if (href && source) {
    return (
      <CitationLink href={href} source={source} number={number} onOpen={onOpen}>
        {number ? `[${number}]` : children}
      </CitationLink>
    );
  }
  return (
    <a href={href ? linkTarget(href) : href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  );
}

function ReportCountsLine({ research, cited }: { research: LiveResearchView; cited: number }) {
  const stats = researchStats(research, null);
  return (
    <p className="text-sm text-muted" data-testid="report-counts" data-sources-read={stats.sourcesRead} data-sources-cited={cited}>
      {stats.sourcesRead} sources read · {cited} cited · hover or click a citation to see what it said
    </p>
  );
}

/** The numbered source list: the targets of the report's [n] citations, each with its page title and URL. */
function SourceList({ sources }: { sources: NumberedSource[] }) {
  return (
    <section aria-labelledby="sources" className="prose-report mt-6">
      <h2 id="sources">Sources</h2>
      <ol data-testid="report-sources" className="!list-none !pl-0">
        {sources.map((s) => (
          <li key={s.n} id={`source-${s.n}`} data-testid="report-source" data-n={s.n} data-url={s.url} className="flex scroll-mt-24 gap-2.5 rounded-md target:bg-accent-soft/60">
            <span className="w-9 shrink-0 whitespace-nowrap text-right tabular-nums text-muted">[{s.n}]</span>
            <span className="min-w-0">
              <span className="block font-medium">{s.title}</span>
              <a href={linkTarget(s.url)} target="_blank" rel="noreferrer noopener" className="block break-all text-sm">
                {s.url}
              </a>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReportActions({ research, markdown }: { research: LiveResearchView; markdown: string }) {
  const [copied, setCopied] = useState<"idle" | "ok" | "failed">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(markdown);
      setCopied("ok");
    } catch {
      // Clipboard API blocked (insecure origin): fall back to a hidden textarea.
      const ta = document.createElement("textarea");
      ta.value = markdown;
      ta.style.position = "fixed";
      ta.style.opacity = "0";
      document.body.appendChild(ta);
      ta.select();
      const ok = document.execCommand("copy");
      ta.remove();
      setCopied(ok ? "ok" : "failed");
    }
    setTimeout(() => setCopied("idle"), 2000);
  }

  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" onClick={copy} className={buttonClass("secondary", "sm")} data-testid="copy-report" aria-live="polite">
        <Icon name={copied === "ok" ? "check" : "copy"} className="size-3.5" />
        {copied === "ok" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
      </button>
      <ExportLinks href={research.links.export} />
    </div>
  );
}
