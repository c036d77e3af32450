"use client";
// The plan: tasks by level (newest first) with type, objective, status and timings. A literature
// task links to its child tree research; an analysis task shows its output or why it was skipped.
import Link from "next/link";
import { memo } from "react";
import { tasksByLevel, type DrTask } from "@/lib/client/deep-research-state";
import { formatDuration } from "@/lib/client/format";

const STATUS_STYLE: Record<string, string> = {
  running: "text-accent",
  completed: "text-[color:var(--st-completed)]",
  failed: "text-danger",
  skipped: "text-muted",
};

function timing(t: DrTask): string {
  if (!t.startedAt) return "";
  const end = t.endedAt ? Date.parse(t.endedAt) : null;
  return end ? formatDuration(end - Date.parse(t.startedAt)) : "started";
}

const TaskRow = memo(function TaskRow({ t }: { t: DrTask }) {
  return (
    <li data-testid="dr-task" data-task-id={t.id} data-status={t.status} className="rounded-lg border border-border bg-surface px-3 py-2">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="rounded bg-surface-2 px-1.5 py-0.5 font-mono">{t.id}</span>
        <span className="font-medium uppercase tracking-wide text-subtle">{t.type === "LITERATURE" ? "Literature" : t.type === "ANALYSIS" ? "Analysis" : t.type}</span>
        <span className={`font-medium capitalize ${STATUS_STYLE[t.status] ?? "text-muted"}`} data-testid="dr-task-status">{t.status}</span>
        <span className="ml-auto tabular-nums text-muted">{timing(t)}</span>
      </div>
      <p className="mt-1 break-words text-sm">{t.objective}</p>
      {t.type === "LITERATURE" && t.childResearchId ? (
        <Link href={`/research/${t.childResearchId}`} prefetch={false} data-testid="dr-task-research" className="mt-1 inline-block text-sm text-accent underline-offset-2 hover:underline">
          Open its research tree<span className="sr-only"> for {t.id}</span>
        </Link>
      ) : null}
      {t.type !== "LITERATURE" && (t.output || t.error) ? (
        <details className="mt-1 text-sm">
          <summary className="cursor-pointer text-accent">Output{t.status === "skipped" ? " (skipped)" : ""}</summary>
          <p className="mt-1 whitespace-pre-wrap break-words text-muted">{t.output ?? t.error}</p>
        </details>
      ) : t.error ? <p className="mt-1 text-sm text-danger">{t.error}</p> : null}
    </li>
  );
});

export function PlanPanel({ plan }: { plan: DrTask[] }) {
  const levels = tasksByLevel(plan);
  return (
    <section aria-labelledby="dr-plan-h" data-testid="dr-plan">
      <h2 id="dr-plan-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Plan</h2>
      {levels.length === 0 ? <p className="mt-2 text-sm text-muted">No tasks yet.</p> : null}
      {/* The two newest levels open; older ones folded, so a long conversation's plan stays short. */}
      {levels.map(({ level, tasks }, i) => (
        <details key={level} open={i < 2} className="group mt-3" data-testid="dr-level">
          <summary className="cursor-pointer text-sm font-medium">
            Level {level} <span className="font-normal text-muted">· {tasks.length} {tasks.length === 1 ? "task" : "tasks"}</span>
          </summary>
          <ul className="mt-1.5 grid gap-2">{tasks.map((t) => <TaskRow key={t.id} t={t} />)}</ul>
        </details>
      ))}
    </section>
  );
}
