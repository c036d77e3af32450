"use client";
// The discoveries: each claim with its confidence, novelty and evidence count. Opening one shows its
// supporting tasks and, under each, the stored quotes with their source links, or the stored queries
// of analysis tasks (SQL, result table, chart); revised and retired
// discoveries stay listed with their history and the reason for each change.
import { memo, useState } from "react";
import { Icon } from "../icons";
import { orderDiscoveries, type DrDiscovery } from "@/lib/client/deep-research-state";
import { hostname } from "@/lib/client/format";
import { QueryResult } from "./query-result";
import { queryCellId, showCell } from "./notebook";

const CONF: Record<string, string> = {
  high: "border-[color:var(--st-completed)] text-[color:var(--st-completed-text)]",
  medium: "border-[color:var(--st-scraping)] text-[color:var(--st-scraping-text)]",
  low: "border-border text-muted",
};

function Evidence({ d }: { d: DrDiscovery }) {
  const tasks = [...new Set([...d.supportingTaskIds, ...d.evidenceItems.map((e) => e.taskId)])];
  return (
    <div data-testid="dr-evidence" className="mt-2 grid gap-2 border-t border-border pt-2">
      {d.evidence ? <p className="text-sm text-muted">{d.evidence}</p> : null}
      {tasks.map((taskId) => {
        const items = d.evidenceItems.filter((e) => e.taskId === taskId);
        return (
          <div key={taskId}>
            <h4 className="font-mono text-xs text-subtle">{taskId}</h4>
            <ul className="mt-1 grid gap-1.5">
              {items.length === 0 ? <li className="text-xs text-muted">No stored quote.</li> : null}
              {items.map((e) => e.query ? (
                <li key={e.itemId} data-testid="dr-query-evidence" className="border-l-2 border-accent/50 pl-2 text-sm">
                  <QueryResult q={e.query} chart={e.query.chart} label={`Evidence: result of query ${e.query.queryId} of ${taskId}`} />
                  <a href={`#${queryCellId(taskId, e.query.queryId)}`} onClick={(ev) => { ev.preventDefault(); showCell(queryCellId(taskId, e.query!.queryId)); }} data-testid="dr-evidence-cell" className="mt-1 inline-block text-xs text-accent hover:underline">
                    Show query {e.query.queryId} in the analyses<span className="sr-only"> ({taskId})</span>
                  </a>
                </li>
              ) : (
                <li key={e.itemId} data-testid="dr-quote" className="border-l-2 border-accent/50 pl-2 text-sm">
                  <blockquote className="break-words">{e.quote ?? "(the quote is no longer stored)"}</blockquote>
                  {e.url ? (
                    <a href={e.url} target="_blank" rel="noreferrer" data-testid="dr-quote-url" className="mt-0.5 inline-flex items-center gap-1 break-all text-xs text-accent hover:underline">
                      {hostname(e.url)} <Icon name="external" className="size-3" /><span className="sr-only"> (opens the source)</span>
                    </a>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      {d.history.length > 1 || d.status !== "active" ? (
        <div>
          <h4 className="text-xs font-medium text-subtle">History</h4>
          <ol className="mt-1 grid gap-1 text-xs text-muted" data-testid="dr-history">
            {d.history.map((h, i) => (
              <li key={i}>
                Level {h.level ?? "?"}: {h.action}{h.reason ? ` — ${h.reason}` : ""}
                {h.previousClaim ? <span className="block italic">Before: {h.previousClaim}</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </div>
  );
}

const DiscoveryItem = memo(function DiscoveryItem({ d }: { d: DrDiscovery }) {
  const [open, setOpen] = useState(false);
  const faded = d.status === "retired";
  return (
    <li data-testid="dr-discovery" data-status={d.status} data-confidence={d.confidence} className={`rounded-lg border border-border bg-surface px-3 py-2 [contain-intrinsic-size:auto_4.5rem] [content-visibility:auto] ${faded ? "opacity-70" : ""}`}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="dr-discovery-toggle" className="flex w-full items-start gap-2 text-left">
        <Icon name={open ? "chevronDown" : "chevronRight"} className="mt-1 size-3.5 shrink-0 text-muted" />
        <span className="min-w-0 flex-1">
          <span className={`block break-words text-sm font-medium ${faded ? "line-through" : ""}`}>{d.claim}</span>
          <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">
            <span className={`rounded-full border px-1.5 py-px font-medium capitalize ${CONF[d.confidence] ?? CONF.low}`}>{d.confidence}<span className="sr-only"> confidence</span></span>
            <span data-testid="dr-evidence-count">{d.evidenceItems.length} evidence</span>
            {d.linkedEvidence === false ? (
              <span data-testid="dr-unlinked" title="The discovery's evidence named no stored source or query" className="rounded-full bg-warn-soft px-1.5 py-px">
                no linked evidence
              </span>
            ) : null}
            {d.status !== "active" ? <span className="capitalize text-subtle">{d.status}</span> : null}
            {d.novelty ? <span className="min-w-0 truncate">{d.novelty}</span> : null}
          </span>
        </span>
      </button>
      {open ? <Evidence d={d} /> : null}
    </li>
  );
});

export const DiscoveriesPanel = memo(function DiscoveriesPanel({ discoveries }: { discoveries: DrDiscovery[] }) {
  const list = orderDiscoveries(discoveries);
  return (
    <section aria-labelledby="dr-disc-h" data-testid="dr-discoveries">
      <h2 id="dr-disc-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Discoveries <span className="font-normal">({list.filter((d) => d.status !== "retired").length})</span></h2>
      {list.length === 0 ? <p className="mt-2 text-sm text-muted">None yet — they appear after an iteration's reflection.</p> : null}
      <ul className="mt-2 grid gap-2">{list.map((d) => <DiscoveryItem key={d.id} d={d} />)}</ul>
    </section>
  );
});
