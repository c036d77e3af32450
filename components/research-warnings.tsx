"use client";
// What the run went on without (fewer queries than planned, a report from partial findings …): a
// quiet list under the header, the first few shown and the rest one click away.
import { useState } from "react";
import { Icon } from "./icons";
import { useResearch } from "./research-context";

const SHOWN = 3;

export function ResearchWarnings() {
  const { live } = useResearch();
  const warnings = live.research.warnings;
  const [all, setAll] = useState(false);
  if (warnings.length === 0) return null;
  const shown = all ? warnings : warnings.slice(0, SHOWN);
  return (
    <section aria-labelledby="research-warnings-title" data-testid="research-warnings" className="mt-4 rounded-xl border border-border bg-surface px-4 py-3">
      <h2 id="research-warnings-title" className="flex items-center gap-2 text-[11px] font-medium uppercase tracking-wide text-subtle">
        <Icon name="alert" className="size-3.5 text-st-paused" />
        {warnings.length === 1 ? "Note on this research" : `Notes on this research (${warnings.length})`}
      </h2>
      <ul className="mt-1.5 space-y-1 text-sm text-muted">
        {shown.map((w, i) => (
          <li key={i} data-testid="research-warning" className="flex gap-2 break-words">
            <span aria-hidden="true" className="mt-2 size-1 shrink-0 rounded-full bg-border-strong" />
            <span className="min-w-0">{w}</span>
          </li>
        ))}
      </ul>
      {warnings.length > SHOWN ? (
        <button type="button" className="mt-1.5 text-xs font-medium text-muted underline underline-offset-2 hover:text-fg" aria-expanded={all} onClick={() => setAll((a) => !a)}>
          {all ? "Show fewer" : `Show ${warnings.length - SHOWN} more`}
        </button>
      ) : null}
    </section>
  );
}
