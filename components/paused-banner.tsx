"use client";
// While a running research waits for its LLM provider (an outage): says so politely, says that it
// goes on by itself, and offers to try the provider again now. The live region stays mounted so
// that both the pause and its end are announced.
import { useEffect, useRef, useState } from "react";
import { useResumeResearch } from "@/hooks/use-research-mutations";
import { buttonClass } from "./button";
import { Icon } from "./icons";
import { useResearch } from "./research-context";
import { Spinner } from "./spinner";

function clock(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  return new Date(t).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

/** The reason without the sentence the banner already says ("Waiting for the LLM provider: …"). */
function detail(reason: string): string {
  return reason.replace(/^waiting for the llm provider\s*[:—-]?\s*/i, "").trim();
}

export function PausedBanner() {
  const { live } = useResearch();
  const r = live.research;
  const paused = r.status === "running" ? r.paused : null;
  const retry = useResumeResearch();
  const [retriedAt, setRetriedAt] = useState<string | null>(null);

  // Announce the end of a pause once, then drop the message.
  const [recovered, setRecovered] = useState(false);
  const wasPaused = useRef(false);
  const isPaused = paused !== null;
  useEffect(() => {
    if (isPaused) {
      wasPaused.current = true;
      return;
    }
    if (!wasPaused.current) return;
    wasPaused.current = false;
    setRecovered(true);
    setRetriedAt(null);
    const t = setTimeout(() => setRecovered(false), 8000);
    return () => clearTimeout(t);
  }, [isPaused]);

  const why = paused ? detail(paused.reason) : "";
  return (
    <div role="status" aria-live="polite" data-testid="paused-region">
      {paused ? (
        <div
          data-testid="paused-banner"
          className="mt-5 flex flex-col gap-3 rounded-xl border border-amber-300/70 bg-warn-soft p-4 sm:flex-row sm:items-start dark:border-amber-500/30"
        >
          <div className="flex min-w-0 flex-1 gap-3">
            <span className="mt-0.5 grid size-5 shrink-0 place-items-center text-st-paused">
              <Icon name="pause" className="size-5" strokeWidth={2.5} />
            </span>
            <div className="min-w-0">
              <p className="font-semibold">
                Waiting for the LLM provider since <time dateTime={paused.since}>{clock(paused.since)}</time>
              </p>
              <p className="mt-0.5 text-sm text-muted">
                The research continues by itself when it answers again. Nothing found so far is lost.
              </p>
              {why ? (
                <p className="mt-1.5 break-words text-xs text-subtle" data-testid="paused-reason">
                  Last error: {why}
                </p>
              ) : null}
              {retriedAt && !retry.isPending ? (
                <p className="mt-1 text-xs text-subtle" data-testid="paused-retried">
                  Tried again at {clock(retriedAt)} — still waiting.
                </p>
              ) : null}
              {retry.error ? (
                <p role="alert" className="mt-1.5 text-sm text-danger" data-testid="paused-retry-error">
                  {retry.error.message}
                </p>
              ) : null}
            </div>
          </div>
          <button
            type="button"
            data-testid="retry-provider"
            aria-disabled={retry.isPending}
            className={buttonClass("secondary", "md", `self-start sm:shrink-0 ${retry.isPending ? "opacity-70" : ""}`)}
            onClick={() => {
              if (retry.isPending) return;
              retry.mutate(r.research_id, { onSuccess: () => setRetriedAt(new Date().toISOString()) });
            }}
          >
            {retry.isPending ? <Spinner className="size-3.5" /> : <Icon name="refresh" className="size-3.5" />}
            {retry.isPending ? "Retrying…" : "Retry now"}
          </button>
        </div>
      ) : recovered ? (
        <p className="sr-only">The LLM provider answers again; the research goes on.</p>
      ) : null}
    </div>
  );
}
