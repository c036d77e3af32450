"use client";
// The current hypothesis (Markdown, with the tasks it rests on) and the key insights.
import { Markdown } from "../markdown";
import type { DrState } from "@/lib/client/deep-research-state";

export function HypothesisPanel({ state }: { state: DrState }) {
  const h = state.currentHypothesis;
  return (
    <section aria-labelledby="dr-hyp-h" data-testid="dr-hypothesis" className="rounded-xl border border-border bg-surface px-4 py-3">
      <h2 id="dr-hyp-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Current hypothesis{h?.level ? <span className="font-normal"> · level {h.level}</span> : null}</h2>
      {h?.hypothesis ? (
        <div className="mt-2">
          <Markdown className="prose-report text-[15px]">{h.hypothesis}</Markdown>
          {h.rationale ? <details className="mt-2 text-sm"><summary className="cursor-pointer text-accent">Rationale</summary><Markdown className="prose-report mt-1 text-sm">{h.rationale}</Markdown></details> : null}
          {h.evidenceTaskIds?.length ? <p className="mt-2 text-xs text-muted">Rests on {h.evidenceTaskIds.map((t) => <span key={t} className="mr-1 rounded bg-surface-2 px-1 font-mono">{t}</span>)}</p> : null}
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
}
