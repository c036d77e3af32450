"use client";
// The conversation's header: title (it evolves), objectives, mode, iteration against its cap, the
// phase running now with its elapsed time, and Stop (ends the loop after the current phase).
import { ExportLinks } from "../export-links";
import { useEffect, useState } from "react";
import { buttonClass } from "../button";
import { Icon } from "../icons";
import { ShareButton } from "../share-dialog";
import { Spinner } from "../spinner";
import { StatusBadge } from "../status-badge";
import { useNow } from "@/hooks/use-now";
import { drApi } from "@/lib/client/deep-research-api";
import { iterationCap, PHASE_NAMES, phaseSince, runningStart, type LiveConversation } from "@/lib/client/deep-research-state";
import { formatDuration } from "@/lib/client/format";
import { formatBytes } from "@/lib/client/deep-research-files";

export const MODE_LABELS: Record<string, string> = {
  "semi-autonomous": "Semi-autonomous",
  "fully-autonomous": "Fully autonomous",
  steering: "Steering",
};

export function DrHeader({ c, semiCap }: { c: LiveConversation; semiCap: number }) {
  const run = c.deepResearchRun;
  const start = runningStart(c);
  const mode = start?.researchMode ?? run.mode ?? c.state.researchMode;
  const phase = c.phase && start && c.phase.messageId === start.id ? c.phase.phase : start?.phase ?? null;
  const iteration = c.phase && start && c.phase.messageId === start.id ? c.phase.iteration : start?.iteration ?? 0;
  // Elapsed in this phase, from the server's record of when it began (right after a reload too).
  const since = phaseSince(c, start);
  const now = useNow(run.isRunning);
  const [stopping, setStopping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A later start shows Stop again, enabled.
  useEffect(() => { if (!run.isRunning) setStopping(false); }, [run.isRunning]);

  const stop = async () => {
    setStopping(true);
    setError(null);
    try {
      await drApi.stop(c.conversationId);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setStopping(false);
    }
  };

  const datasets = (c.state.uploadedDatasets as { filename?: string; size?: number }[]).filter((d): d is { filename: string; size: number } => typeof d?.filename === "string" && typeof d.size === "number");
  const title = c.state.conversationTitle ?? c.state.objective;
  const evolving = c.state.evolvingObjective ?? c.state.currentObjective;
  return (
    <header className="min-w-0">
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs text-muted">
        {/* Paused while the loop waits for its LLM provider (an outage); it goes on by itself. */}
        <StatusBadge status={run.isRunning ? "running" : run.lastResult === "failed" ? "failed" : "completed"} paused={run.isRunning && !!run.paused} title={run.paused?.reason} testid="dr-status" />
        <span className="rounded-full border border-border bg-surface px-2 py-0.5 font-medium" data-testid="dr-mode">{MODE_LABELS[mode] ?? mode}</span>
        <span data-testid="dr-iteration">
          Level {c.state.currentLevel}
          {run.isRunning ? <> · iteration {iteration || 1} of {iterationCap(mode, semiCap)}</> : null}
        </span>
        <span className="sr-only" role="status">{run.isRunning && phase ? `Now: ${PHASE_NAMES[phase] ?? phase}` : run.isRunning ? "Running" : "Idle"}</span>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <h1 data-testid="dr-title" className="line-clamp-3 text-xl font-semibold leading-snug tracking-tight sm:text-2xl">{title}</h1>
        <div className="flex shrink-0 gap-2">
          {run.isRunning ? (
            <button type="button" data-testid="dr-stop" className={buttonClass("secondary", "md", "shrink-0")} onClick={stop} disabled={stopping}>
              <Icon name="stop" className="size-3.5" /> {stopping ? "Stopping…" : "Stop"}
            </button>
          ) : null}
          <ShareButton conversationId={c.conversationId} />
        </div>
      </div>
      {c.messages.some((m) => m.role === "assistant") ? (
        <div className="mt-3">
          <ExportLinks href={`/api/deep-research/conversations/${encodeURIComponent(c.conversationId)}/export`} testid="dr-export" />
        </div>
      ) : null}
      <dl className="mt-3 grid gap-1 text-sm">
        <div className="flex gap-2"><dt className="shrink-0 text-muted">Objective</dt><dd data-testid="dr-objective" className="min-w-0 break-words">{c.state.objective}</dd></div>
        {evolving && evolving !== c.state.objective ? (
          <div className="flex gap-2"><dt className="shrink-0 text-muted">Now</dt><dd data-testid="dr-evolving" className="min-w-0 break-words">{evolving}</dd></div>
        ) : null}
        {datasets.length ? (
          <div className="flex gap-2"><dt className="shrink-0 text-muted">Datasets</dt><dd data-testid="dr-datasets" className="min-w-0 break-words">{datasets.map((d) => `${d.filename} (${formatBytes(d.size)})`).join(", ")}</dd></div>
        ) : null}
      </dl>
      {/* A fixed-height line, present while running or not, so nothing below jumps. */}
      <div className="mt-3 flex h-7 items-center gap-2 text-sm" data-testid="dr-phase" data-phase={run.isRunning ? phase ?? "starting" : "idle"} data-since={run.isRunning && since ? since : undefined} aria-live="off">
        {run.isRunning ? (
          <>
            <Spinner className="size-3.5 text-accent" />
            <span className="font-medium">{phase ? PHASE_NAMES[phase] ?? phase : "Starting"}</span>
            {since ? <span className="tabular-nums text-muted">{formatDuration(Math.max(0, now - since))}</span> : null}
          </>
        ) : (
          <span className="text-muted" data-testid="dr-idle">
            {run.lastResult === "failed" ? `The last run failed${run.lastError ? `: ${run.lastError}` : ""}` : "Waiting for you"}
          </span>
        )}
      </div>
      {error ? <p role="alert" className="text-sm text-danger">{error}</p> : null}
    </header>
  );
}
