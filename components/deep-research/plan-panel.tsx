"use client";
// The plan: tasks by level (newest first) with type, objective, status and timings. A literature
// task links to its child tree research; an analysis task that ran queries links to its place in the
// notebook (main column), one that did not shows its output or why it was skipped.
// A task cited by the hypothesis is scrolled to, opened and highlighted (`focus`).
import Link from "next/link";
import { memo, useCallback, useEffect, useRef, useState } from "react";
import { analysisArtifactsOf, tasksByLevel, type DrTask } from "@/lib/client/deep-research-state";
import { formatDuration } from "@/lib/client/format";

const STATUS_STYLE: Record<string, string> = {
  running: "text-accent",
  completed: "text-[color:var(--st-completed-text)]",
  failed: "text-danger",
  skipped: "text-muted",
};

function timing(t: DrTask): string {
  if (!t.startedAt) return "";
  const end = t.endedAt ? Date.parse(t.endedAt) : null;
  return end ? formatDuration(end - Date.parse(t.startedAt)) : "started";
}

/** The task to show: a new `seq` each time, so that citing the same task again scrolls to it again. */
export type TaskFocus = { id: string; seq: number } | null;

/** The task the hypothesis last cited, and the callback its citations call. */
export function useTaskFocus(): [TaskFocus, (id: string) => void] {
  const [focus, setFocus] = useState<TaskFocus>(null);
  const cite = useCallback((id: string) => setFocus((f) => ({ id, seq: (f?.seq ?? 0) + 1 })), []);
  return [focus, cite];
}

const TaskRow = memo(function TaskRow({ t, focusSeq }: { t: DrTask; focusSeq: number | null }) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focusSeq === null || !ref.current) return;
    ref.current.scrollIntoView({ block: "center" });
    ref.current.focus({ preventScroll: true });
  }, [focusSeq]);
  const focused = focusSeq !== null;
  // An analysis that ran queries is read in the notebook (notebook.tsx); the plan links to it.
  const inNotebook = t.type === "ANALYSIS" && (analysisArtifactsOf(t)?.queries.length ?? 0) > 0;
  return (
    <li
      ref={ref}
      id={`dr-task-${t.id}`}
      tabIndex={-1}
      data-testid="dr-task"
      data-task-id={t.id}
      data-status={t.status}
      data-highlighted={focused ? "true" : undefined}
      className={`rounded-lg border bg-surface px-3 py-2 outline-none transition-shadow ${focused ? "border-accent ring-2 ring-accent/40" : "border-border"}`}
    >
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
      {inNotebook ? (
        <a href={`#dr-analysis-${t.id}`} onClick={(e) => { e.preventDefault(); showAnalysis(t.id); }} data-testid="dr-task-notebook" className="mt-1 inline-block text-sm text-accent underline-offset-2 hover:underline">
          Show in the analyses<span className="sr-only"> ({t.id}: its write-up, queries, results and chart)</span>
        </a>
      ) : t.type !== "LITERATURE" && (t.output || t.error) ? (
        <details className="mt-1 text-sm">
          <summary className="cursor-pointer text-accent">Output{t.status === "skipped" ? " (skipped)" : ""}</summary>
          <p className="mt-1 whitespace-pre-wrap break-words text-muted" data-testid="dr-task-output">{t.output ?? t.error}</p>
        </details>
      ) : t.error ? <p className="mt-1 text-sm text-danger">{t.error}</p> : null}
    </li>
  );
});

/** Scrolls to an analysis in the notebook (the main column) and focuses it. */
function showAnalysis(taskId: string) {
  const el = document.getElementById(`dr-analysis-${taskId}`);
  el?.scrollIntoView({ block: "start" });
  el?.focus({ preventScroll: true });
}

/** One level; folded levels render their tasks only when opened, so a long plan stays cheap. */
const PlanLevel = memo(function PlanLevel({ level, tasks, defaultOpen, focus }: { level: number; tasks: DrTask[]; defaultOpen: boolean; focus: TaskFocus }) {
  const [open, setOpen] = useState(defaultOpen);
  const focusHere = focus && tasks.some((t) => t.id === focus.id) ? focus : null;
  // A cited task's level opens (state set during render: the task is in the DOM in the same commit).
  const [seen, setSeen] = useState<number | null>(null);
  if (focusHere && focusHere.seq !== seen) {
    setSeen(focusHere.seq);
    if (!open) setOpen(true);
  }
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} className="group mt-3" data-testid="dr-level" data-level={level}>
      <summary className="cursor-pointer text-sm font-medium">
        Level {level} <span className="font-normal text-muted">· {tasks.length} {tasks.length === 1 ? "task" : "tasks"}</span>
      </summary>
      {open ? <ul className="mt-1.5 grid gap-2">{tasks.map((t) => <TaskRow key={t.id} t={t} focusSeq={focusHere?.id === t.id ? focusHere.seq : null} />)}</ul> : null}
    </details>
  );
});

export const PlanPanel = memo(function PlanPanel({ plan, focus = null }: { plan: DrTask[]; focus?: TaskFocus }) {
  const levels = tasksByLevel(plan);
  return (
    <section aria-labelledby="dr-plan-h" data-testid="dr-plan">
      <h2 id="dr-plan-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Plan</h2>
      {levels.length === 0 ? <p className="mt-2 text-sm text-muted">No tasks yet.</p> : null}
      {/* The two newest levels open; older ones folded, so a long conversation's plan stays short. */}
      {levels.map(({ level, tasks }, i) => (
        <PlanLevel key={level} level={level} tasks={tasks} defaultOpen={i < 2} focus={focus} />
      ))}
    </section>
  );
});
