"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { useCancelResearch } from "@/hooks/use-research-mutations";
import { useNow } from "@/hooks/use-now";
import { formatDateTime, formatDuration, formatNumber, formatRelative } from "@/lib/client/format";
import { elapsedMs, researchStats } from "@/lib/client/research-stats";
import { buttonClass } from "./button";
import { ConfirmDialog } from "./confirm-dialog";
import { Icon } from "./icons";
import { IntentLink } from "./intent-link";
import { useResearch } from "./research-context";
import { PausedBanner } from "./paused-banner";
import { ResearchAnnouncer } from "./research-announcer";
import { ResearchStopped } from "./research-stopped";
import { ResearchWarnings } from "./research-warnings";
import { ShareButton } from "./share-dialog";
import { StatusBadge } from "./status-badge";

const PHASE_LABEL = {
  starting: "Planning the first queries…",
  researching: "Searching and reading…",
  writing: "Writing the report…",
  done: "",
};

export function ResearchHeader() {
  const { live, connection, reconnect } = useResearch();
  const r = live.research;
  const running = r.status === "running";
  const now = useNow(running);
  const stats = useMemo(() => researchStats(r, live.reportDraft), [r, live.reportDraft]);
  // toLocaleString builds a formatter each call: once per research, not once per streamed batch.
  const createdTitle = useMemo(() => formatDateTime(r.created_at), [r.created_at]);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const cancel = useCancelResearch();
  const onReport = (usePathname() ?? "").endsWith("/report");
  const paused = running ? r.paused : null;
  // After Resume / Write report the actions disappear: give focus to the title, not to nothing.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const restarted = useRef(false);
  useEffect(() => {
    if (restarted.current && r.status === "running") {
      restarted.current = false;
      titleRef.current?.focus();
    }
  }, [r.status]);

  return (
    <section aria-labelledby="research-title">
      <ResearchAnnouncer status={r.status} stats={stats} error={r.error} />
      <IntentLink href="/history" className="inline-flex items-center gap-1 text-sm text-muted hover:text-fg">
        <Icon name="arrowLeft" className="size-3.5" /> History
      </IntentLink>
      <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="mb-2 flex flex-wrap items-center gap-2 text-xs text-muted">
            <StatusBadge status={r.status} paused={!!paused} title={paused?.reason} testid="research-status" />
            {r.depth && r.breadth ? <span title="depth × breadth">Depth {r.depth} × breadth {r.breadth}</span> : null}
            <span aria-hidden="true">·</span>
            <time dateTime={r.created_at} title={createdTitle}>{formatRelative(r.created_at, now)}</time>
            {running ? <ConnectionIndicator connection={connection} /> : null}
          </div>
          <h1 ref={titleRef} tabIndex={-1} id="research-title" data-testid="research-title" className="line-clamp-3 focus:outline-none focus-visible:rounded-sm focus-visible:outline-2 text-xl font-semibold leading-snug tracking-tight sm:text-2xl">
            {r.initial_prompt}
          </h1>
        </div>
        <div className="flex shrink-0 gap-2">
          {running ? (
            <button type="button" data-testid="cancel-research" className={buttonClass("secondary", "md")} onClick={() => setConfirmCancel(true)}>
              <Icon name="stop" className="size-3.5" /> Cancel
            </button>
          ) : null}
          {r.status === "completed" ? <ShareButton researchId={r.research_id} /> : null}
          {r.status === "completed" && !onReport ? (
            <Link href={`/research/${r.research_id}/report`} data-testid="open-report" className={buttonClass("primary", "md")}>
              <Icon name="file" /> Read report
            </Link>
          ) : null}
        </div>
      </div>

      <PausedBanner />
      <ResearchStopped onRestarted={() => (restarted.current = true)} />
      <ResearchWarnings />

      <dl className="mt-5 grid grid-cols-2 gap-2.5 sm:grid-cols-4 sm:gap-3">
        <Stat label="Queries" testid="stat-queries" value={<>{stats.queriesDone}<span className="text-subtle">/{stats.queriesTotal}</span></>} sub={countsSub(stats.queriesFailed, stats.queriesStopped, "done")} subDanger={stats.queriesFailed > 0} />
        <Stat
          label="Page analyses"
          testid="stat-pages"
          value={<>{stats.pagesAnalyzed}<span className="text-subtle">/{stats.pagesTotal}</span></>}
          sub={
            <>
              {stats.sourcesRead} {stats.sourcesRead === 1 ? "source" : "sources"} read
              {stats.pagesFailed || stats.pagesStopped ? (
                <span className={stats.pagesFailed ? "text-danger" : undefined}> · {countsSub(stats.pagesFailed, stats.pagesStopped, "")}</span>
              ) : null}
            </>
          }
          subTestid="stat-sources-read"
          subData={stats.sourcesRead}
          title="A page analysis is one query reading one page; a page several queries read is one source."
        />
        <Stat label="Tokens" testid="stat-tokens" value={formatNumber(r.tokens.total)} sub={`${r.tokens.llm_calls} LLM ${r.tokens.llm_calls === 1 ? "call" : "calls"}`} subTestid="stat-llm-calls" subData={r.tokens.llm_calls} title={`${r.tokens.prompt} prompt + ${r.tokens.completion} completion`} />
        <Stat label="Elapsed" testid="stat-elapsed" value={formatDuration(elapsedMs(r, now))} sub={paused ? "Waiting for the LLM" : running ? PHASE_LABEL[stats.phase] : r.completed_at ? `finished ${formatRelative(r.completed_at, now)}` : "—"} />
      </dl>

      <div className="mt-4" aria-hidden={!running && r.status !== "completed"}>
        <div
          role="progressbar"
          aria-label="Research progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(stats.progress * 100)}
          data-testid="progress"
          className="relative h-1.5 overflow-hidden rounded-full bg-border/70"
        >
          {/* Scaled, not resized: a width transition repainted the page every frame while events streamed in. */}
          <div
            className="h-full w-full origin-left rounded-full transition-transform duration-500"
            style={{ transform: `scaleX(${stats.progress})`, background: progressColor(r.status, !!paused) }}
          />
          {running && !paused && stats.phase !== "researching" ? <div className="animate-indeterminate absolute inset-y-0 left-0 w-1/3 rounded-full bg-accent/40" /> : null}
        </div>
      </div>

      <ConfirmDialog
        open={confirmCancel}
        title="Cancel this research?"
        description="Queries in flight stop. What was found so far is kept: you can resume the research later, or write its report from it."
        confirmLabel="Cancel research"
        busyLabel="Cancelling…"
        busy={cancel.isPending}
        error={cancel.error?.message}
        destructive
        onClose={() => setConfirmCancel(false)}
        onConfirm={() =>
          cancel.mutate(r.research_id, {
            onSuccess: () => {
              setConfirmCancel(false);
              // The server announces "cancelled" (which ends the stream) before it marks the queries
              // the cancel interrupted as stopped; its reply waits for that, so look again now.
              reconnect();
            },
          })
        }
      />
    </section>
  );
}

function countsSub(failed: number, stopped: number, none: string): string {
  const parts = [failed ? `${failed} failed` : "", stopped ? `${stopped} stopped` : ""].filter(Boolean);
  return parts.length ? parts.join(" · ") : none;
}

function progressColor(status: string, paused: boolean): string {
  if (paused) return "var(--st-paused)";
  if (status === "failed") return "var(--st-failed)";
  if (status === "cancelled") return "var(--st-stopped)";
  if (status === "completed") return "var(--st-completed)";
  return "var(--accent)";
}

function Stat({ label, value, sub, subDanger, testid, subTestid, subData, title }: { label: string; value: React.ReactNode; sub: React.ReactNode; subDanger?: boolean; testid: string; subTestid?: string; subData?: number; title?: string }) {
  return (
    <div className="min-w-0 rounded-xl border border-border bg-surface px-3.5 py-3" title={title}>
      <dt className="text-[11px] font-medium uppercase tracking-wide text-subtle">{label}</dt>
      <dd data-testid={testid} className="mt-1 text-xl font-semibold tabular-nums tracking-tight">{value}</dd>
      <dd data-testid={subTestid} data-count={subData} className={`mt-0.5 line-clamp-2 text-xs ${subDanger ? "text-danger" : "text-muted"}`}>{sub}</dd>
    </div>
  );
}

function ConnectionIndicator({ connection }: { connection: string }) {
  const live = connection === "live";
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="connection" data-state={connection}>
      <span aria-hidden="true" className={`size-1.5 rounded-full ${live ? "animate-pulse-dot bg-emerald-500" : "bg-amber-500"}`} />
      {live ? "Live" : "Reconnecting…"}
    </span>
  );
}
