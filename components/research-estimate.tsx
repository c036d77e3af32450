// What a depth × breadth choice will cost, shown before the research starts: the tree's counts, and
// the time, token and cost ranges the server computed from its per-call figures and price.
import { estimateResearch, MAX_PAGES_PER_QUERY } from "@/lib/client/estimate";
import { formatNumber, formatSecondsRange, formatUsd } from "@/lib/client/format";
import type { EstimateRanges } from "@/lib/estimate-ranges";

export function ResearchEstimate({ depth, breadth, ranges }: { depth: number; breadth: number; ranges?: EstimateRanges }) {
  const e = estimateResearch(depth, breadth);
  const widest = Math.max(...e.levels);
  return (
    <div data-testid="estimate" className="rounded-xl border border-border bg-surface-2/50 p-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Stat label="Search queries" value={String(e.queries)} testid="estimate-queries" />
        <Stat label="Page analyses" value={`≤ ${formatNumber(e.maxPages)}`} testid="estimate-pages" />
        <Stat label="LLM calls" value={`${e.minLlmCalls}–${formatNumber(e.maxLlmCalls)}`} testid="estimate-llm" />
        {ranges ? (
          <>
            <Stat label="Verification calls" value={`${ranges.verificationCalls.low}–${formatNumber(ranges.verificationCalls.high)}`} testid="estimate-verification" />
            <Stat label="Time" value={formatSecondsRange(ranges.seconds.low, ranges.seconds.high)} testid="estimate-time" />
            <Stat label="Tokens" value={`${formatNumber(ranges.tokens.low)}–${formatNumber(ranges.tokens.high)}`} testid="estimate-tokens" />
            {ranges.cost ? (
              <Stat label="Cost" value={`${formatUsd(ranges.cost.low)}–${formatUsd(ranges.cost.high)}`} testid="estimate-cost" />
            ) : null}
          </>
        ) : null}
      </dl>
      <div className="mt-4 space-y-1.5" aria-label="Queries per level">
        {e.levels.map((n, i) => (
          <div key={i} className="flex items-center gap-3 text-xs">
            <span data-estimate-label className="w-14 shrink-0 whitespace-nowrap text-subtle">Level {i + 1}</span>
            <div className="h-2 flex-1 overflow-hidden rounded-full bg-border/60">
              <div className="h-full rounded-full bg-accent/70" style={{ width: `${Math.max(4, (n / widest) * 100)}%` }} />
            </div>
            <span data-estimate-label className="w-20 shrink-0 whitespace-nowrap text-right tabular-nums text-muted">{n} {n === 1 ? "query" : "queries"}</span>
          </div>
        ))}
      </div>
      <p className="mt-3 text-xs leading-relaxed text-subtle">
        Each level asks half as many follow-ups per query as the one above. Up to {MAX_PAGES_PER_QUERY} pages are read per
        query; LLM calls count the questions, the root and follow-up query generations, one analysis per page and the report.
        {ranges ? " Time and tokens run from no page found to every page read, at typical figures per call, the citation check of the report included (one call per cited source, which also corrects unsupported sentences, and a second check of the corrections); the time is the model's, searches and page fetches add to it." : ""}{" "}
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

/** The same estimate in one line, for the re-run form. */
export function EstimateLine({ depth, breadth, ranges, testid }: { depth: number; breadth: number; ranges?: EstimateRanges; testid?: string }) {
  const e = estimateResearch(depth, breadth);
  const parts = [`${e.queries} ${e.queries === 1 ? "query" : "queries"}`, `up to ${formatNumber(e.maxPages)} page analyses`, `${e.minLlmCalls}–${formatNumber(e.maxLlmCalls)} LLM calls`];
  if (ranges) {
    parts.push(formatSecondsRange(ranges.seconds.low, ranges.seconds.high), `${formatNumber(ranges.tokens.low)}–${formatNumber(ranges.tokens.high)} tokens`);
    if (ranges.cost) parts.push(`${formatUsd(ranges.cost.low)}–${formatUsd(ranges.cost.high)}`);
  }
  return (
    <p className="text-xs text-muted" data-testid={testid}>
      {parts.join(" · ")}
    </p>
  );
}

function Stat({ label, value, testid }: { label: string; value: string; testid: string }) {
  return (
    <div className="min-w-0">
      <dt data-estimate-label className="text-[11px] font-medium uppercase leading-tight tracking-wide text-subtle">{label}</dt>
      <dd data-testid={testid} data-estimate-label className="mt-0.5 whitespace-nowrap text-lg font-semibold tabular-nums tracking-tight sm:text-xl">{value}</dd>
    </div>
  );
}
