"use client";
// A failed or cancelled research: why it stopped, and what to do next — resume it from where it
// stopped, write the report from what it found, or re-run it with the same answers (a new research).
import { useState } from "react";
import { useResumeResearch, useWriteReport } from "@/hooks/use-research-mutations";
import { hasFindings } from "@/lib/client/research-stats";
import { buttonClass } from "./button";
import { ErrorOutput } from "./error-output";
import { Icon } from "./icons";
import { useResearch } from "./research-context";
import { RerunResearch } from "./rerun-research";
import { Spinner } from "./spinner";

/** `onRestarted`: the research runs again (the actions disappear; the header takes focus). */
export function ResearchStopped({ onRestarted }: { onRestarted: () => void }) {
  const { live } = useResearch();
  const r = live.research;

  if (r.status === "failed") {
    return (
      <div data-testid="research-error" className="mt-5 rounded-xl border border-danger/30 bg-danger-soft p-4">
        <div className="flex gap-3">
          <Icon name="alert" className="mt-0.5 size-5 shrink-0 text-danger" />
          <div className="min-w-0 flex-1" role="alert">
            <p className="font-semibold text-danger">This research failed</p>
            <p className="mt-1 break-words text-sm" data-testid="research-error-message">{r.error ?? "An unknown error stopped the research."}</p>
            <ErrorOutput href={r.links.error_output} />
          </div>
        </div>
        <RecoveryActions onRestarted={onRestarted} />
      </div>
    );
  }
  if (r.status === "cancelled") {
    return (
      <div data-testid="research-cancelled" className="mt-5 rounded-xl border border-border bg-surface-2/60 p-4">
        <div className="flex gap-3">
          {/* A filled "stop" square: the outline icon read as an empty checkbox here. */}
          <span aria-hidden="true" className="grid size-5 shrink-0 place-items-center">
            <span className="size-3 rounded-[3px] bg-st-stopped" />
          </span>
          <p className="min-w-0 flex-1 text-sm text-muted">
            <span className="block font-semibold text-fg">This research was cancelled</span>
            What it found before stopping is kept below.
          </p>
        </div>
        <RecoveryActions onRestarted={onRestarted} />
      </div>
    );
  }
  return null;
}

function RecoveryActions({ onRestarted }: { onRestarted: () => void }) {
  const { live, reconnect, refreshing } = useResearch();
  const r = live.research;
  const resume = useResumeResearch();
  const write = useWriteReport();
  const [started, setStarted] = useState<"resume" | "report" | null>(null);
  const findings = hasFindings(r);
  // From the click until the stream shows the research running again.
  const waiting = started !== null && refreshing;
  const busy = resume.isPending || write.isPending || waiting;
  const error = resume.error ?? write.error;

  const onSuccess = (which: "resume" | "report") => () => {
    setStarted(which);
    onRestarted();
    reconnect();
  };
  const run = (which: "resume" | "report") => {
    if (busy) return;
    resume.reset();
    write.reset();
    (which === "resume" ? resume : write).mutate(r.research_id, { onSuccess: onSuccess(which) });
  };
  const resuming = resume.isPending || (waiting && started === "resume");
  const writing = write.isPending || (waiting && started === "report");

  return (
    <div className="mt-4 border-t border-border/70 pt-3 sm:pl-8" data-testid="recovery-actions">
      <div className="flex flex-wrap gap-2">
        <ActionButton
          testid="resume-research"
          variant="primary"
          icon="play"
          label="Resume"
          pendingLabel="Resuming…"
          pending={resuming}
          busy={busy}
          onClick={() => run("resume")}
        />
        {findings ? (
          <ActionButton
            testid="write-report"
            variant="secondary"
            icon="file"
            label="Write report from findings"
            pendingLabel="Starting the report…"
            pending={writing}
            busy={busy}
            onClick={() => run("report")}
          />
        ) : null}
        <RerunResearch disabled={busy} />
      </div>
      <p id="recovery-help" className="mt-2 text-xs text-muted">
        {findings
          ? "Resume continues from where it stopped; nothing already done is redone. Or write the report now from what was found, or re-run it from the start with the same answers."
          : "Resume continues from where it stopped, or re-run it from the start with the same answers. Nothing was found yet to write a report from."}
      </p>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-danger" data-testid="recovery-error">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}

function ActionButton(p: {
  testid: string;
  variant: "primary" | "secondary";
  icon: "play" | "file";
  label: string;
  pendingLabel: string;
  /** This action is under way. */
  pending: boolean;
  /** Any action is under way. */
  busy: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      data-testid={p.testid}
      aria-disabled={p.busy}
      aria-describedby="recovery-help"
      className={buttonClass(p.variant, "md", p.busy ? "opacity-70" : "")}
      onClick={p.onClick}
    >
      {p.pending ? <Spinner className="size-3.5" /> : <Icon name={p.icon} className="size-3.5" />}
      {p.pending ? p.pendingLabel : p.label}
    </button>
  );
}
