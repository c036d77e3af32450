// The tree's arithmetic (one source, shared with the browser: lib/tree-arithmetic.ts) and the
// scheduling priority of its LLM calls.
export { childCount, levelBreadths, queriesPerLevel, totalQueries } from "../tree-arithmetic";

/**
 * The scheduling priority of an LLM call of a run (the LLM limiter serves the highest first within a
 * run). Shallower work goes first: it unlocks the most of what remains. Within a level above the last,
 * child generation goes first, then the queries with the fewest analyses left, so that queries finish
 * one by one and their children arrive in a steady stream (served in lockstep, a whole level would
 * finish at once and leave the LLM idle while its children search). On the last level the leaves with
 * the most analyses left go first, so that they all finish together at the end.
 */
export function llmPriority(
  call:
    | { kind: "root" }
    | { kind: "children"; depth: number }
    | { kind: "analysis"; depth: number; analysesLeft: number }
    | { kind: "report" },
  { depth: maxDepth, pagesPerQuery }: { depth: number; pagesPerQuery: number },
): number {
  // Levels apart by more than any within-level spread.
  const level = (d: number) => (maxDepth - d + 1) * (pagesPerQuery + 2);
  switch (call.kind) {
    case "root":
      return level(0);
    case "children":
      return level(call.depth) + pagesPerQuery + 1;
    case "analysis":
      return call.depth < maxDepth
        ? level(call.depth) + Math.max(0, pagesPerQuery - call.analysesLeft) + 1
        : level(call.depth) + Math.min(pagesPerQuery, call.analysesLeft);
    case "report":
      return 0;
  }
}
