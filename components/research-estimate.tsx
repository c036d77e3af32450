// What a depth × breadth choice will cost, shown before the research starts.
import { estimateResearch, MAX_PAGES_PER_QUERY } from "@/lib/client/estimate";
import { formatNumber } from "@/lib/client/format";

export function ResearchEstimate({ depth, breadth }: { depth: number; breadth: number }) {
  const e = estimateResearch(depth, breadth);
  const widest = Math.max(...e.levels);
  return (
    <div data-testid="estimate" className="rounded-xl border border-border bg-surface-2/50 p-4">
      <dl className="grid grid-cols-3 gap-3">
        <Stat label="Search queries" value={String(e.queries)} testid="estimate-queries" />
        <Stat label="Page analyses" value={`≤ ${formatNumber(e.maxPages)}`} testid="estimate-pages" />
        <Stat label="LLM calls" value={`${e.minLlmCalls}–${formatNumber(e.maxLlmCalls)}`} testid="estimate-llm" />
      </dl>
      <div className="mt-4 space-y-1.5" aria-label="Queries per level">
        {e.levels.map((n, i) => (
          <div key={i} className="flex items-center gap-3 text-xs">
            <span className="w-14 shrink-0 text-subtle">Level {i + 1}</span>
            <div className="h-2 flex-1 overflow-hidden rounded-full bg-border/60">
              <div className="h-full rounded-full bg-accent/70" style={{ width: `${Math.max(4, (n / widest) * 100)}%` }} />
            </div>
            <span className="w-16 shrink-0 text-right tabular-nums text-muted">{n} {n === 1 ? "query" : "queries"}</span>
          </div>
        ))}
      </div>
      <p className="mt-3 text-xs leading-relaxed text-subtle">
        Each level asks half as many follow-ups per query as the one above. Up to {MAX_PAGES_PER_QUERY} pages are read per
        query; LLM calls count the questions, the root and follow-up query generations, one analysis per page and the report.{" "}
        <span data-testid="estimate-llm-worst">
          If the model&apos;s replies need repairs, at most {formatNumber(e.worstLlmCalls)} calls.
        </span>
      </p>
      {e.queries > 60 ? (
        <p className="mt-2 text-xs font-medium text-amber-700 dark:text-amber-400">A large research: expect it to run for a while and use many tokens.</p>
      ) : null}
    </div>
  );
}

function Stat({ label, value, testid }: { label: string; value: string; testid: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] font-medium uppercase leading-tight tracking-wide text-subtle">{label}</dt>
      <dd data-testid={testid} className="mt-0.5 text-xl font-semibold tabular-nums tracking-tight sm:text-2xl">{value}</dd>
    </div>
  );
}
