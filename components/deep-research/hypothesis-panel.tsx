"use client";
// The current hypothesis (Markdown, with the tasks it rests on) and the key insights. Task ids it
// cites, inline or in "Rests on", link to the task in the plan panel (onCite scrolls to it).
import { memo, useCallback, useMemo, useState, type MouseEvent, type ReactNode } from "react";
import { Markdown } from "../markdown";
import type { DrState } from "@/lib/client/deep-research-state";
import { citedTaskId, linkTaskCitations } from "@/lib/client/task-citations";

function TaskCite({ id, onCite, children }: { id: string; onCite: (id: string) => void; children: ReactNode }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    onCite(id);
  };
  return (
    <a href={`#dr-task-${id}`} onClick={click} data-testid="dr-cite" data-task-id={id} className="rounded bg-surface-2 px-1 font-mono text-[0.9em] text-accent no-underline hover:underline">
      {children}
      <span className="sr-only"> (show the task in the plan)</span>
    </a>
  );
}

export const HypothesisPanel = memo(function HypothesisPanel({ state, taskIds, onCite }: { state: DrState; taskIds: ReadonlySet<string>; onCite: (id: string) => void }) {
  const h = state.currentHypothesis;
  // The rationale's Markdown renders when it is first opened.
  const [rationaleOpen, setRationaleOpen] = useState(false);
  const renderLink = useCallback(
    ({ href, children }: { href?: string; children: ReactNode }) => {
      const id = citedTaskId(href);
      if (id) return <TaskCite id={id} onCite={onCite}>{children}</TaskCite>;
      return <a href={href} target="_blank" rel="noreferrer noopener">{children}</a>;
    },
    [onCite],
  );
  const hypothesis = useMemo(() => (h?.hypothesis ? linkTaskCitations(h.hypothesis, taskIds) : ""), [h?.hypothesis, taskIds]);
  const rationale = useMemo(() => (h?.rationale ? linkTaskCitations(h.rationale, taskIds) : ""), [h?.rationale, taskIds]);
  return (
    <section aria-labelledby="dr-hyp-h" data-testid="dr-hypothesis" className="rounded-xl border border-border bg-surface px-4 py-3">
      <h2 id="dr-hyp-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Current hypothesis{h?.level ? <span className="font-normal"> · level {h.level}</span> : null}</h2>
      {h?.hypothesis ? (
        <div className="mt-2">
          <Markdown className="prose-report text-[15px]" renderLink={renderLink}>{hypothesis}</Markdown>
          {h.rationale ? (
            <details className="mt-2 text-sm" onToggle={(e) => setRationaleOpen(e.currentTarget.open)}>
              <summary className="cursor-pointer text-accent">Rationale</summary>
              {rationaleOpen ? <Markdown className="prose-report mt-1 text-sm" renderLink={renderLink}>{rationale}</Markdown> : null}
            </details>
          ) : null}
          {h.evidenceTaskIds?.length ? (
            <p className="mt-2 flex flex-wrap items-center gap-1 text-xs text-muted" data-testid="dr-rests-on">
              Rests on{" "}
              {h.evidenceTaskIds.map((t) => (taskIds.has(t) ? <TaskCite key={t} id={t} onCite={onCite}>{t}</TaskCite> : <span key={t} className="rounded bg-surface-2 px-1 font-mono">{t}</span>))}
            </p>
          ) : null}
        </div>
      ) : <p className="mt-2 text-sm text-muted">No hypothesis yet.</p>}
      {state.keyInsights.length ? (
        <>
          <h3 className="mt-3 text-sm font-medium">Key insights</h3>
          <ul data-testid="dr-insights" className="mt-1 list-disc space-y-1 pl-5 text-sm">{state.keyInsights.map((k, i) => <li key={i}>{k}</li>)}</ul>
        </>
      ) : null}
    </section>
  );
});
