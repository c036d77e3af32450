// Tree arithmetic. Level sizes: b1 = breadth, b(d+1) = ceil(b(d) / 2); a completed query at
// depth d < depth gets b(d+1) children.

/** The breadth each level is generated with: [b1, b2, …, b_depth]. */
export function levelBreadths(depth: number, breadth: number): number[] {
  const out: number[] = [];
  let b = breadth;
  for (let d = 1; d <= depth; d++) {
    out.push(b);
    b = Math.ceil(b / 2);
  }
  return out;
}

/** The number of children a query gets, given the breadth its own level was generated with. */
export function childCount(levelBreadth: number): number {
  return Math.ceil(levelBreadth / 2);
}

/** Queries per level when every query completes: [b1, b1·b2, b1·b2·b3, …]. */
export function queriesPerLevel(depth: number, breadth: number): number[] {
  const out: number[] = [];
  let count = 1;
  for (const b of levelBreadths(depth, breadth)) {
    count *= b;
    out.push(count);
  }
  return out;
}

export function totalQueries(depth: number, breadth: number): number {
  return queriesPerLevel(depth, breadth).reduce((a, b) => a + b, 0);
}

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
