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
 * How many LLM steps at the least follow, in sequence, from an LLM call of a run: its scheduling
 * priority (the LLM limiter serves the highest first within a run). Serving the longest remaining
 * path first keeps every slot busy to the end: the shallow queries that unlock the most work go
 * first, and leaves with more analyses left go before those nearly done.
 * `pagesPerQuery` pages are analysed `analyzeConcurrency` at a time; a query above the last depth
 * then generates its children.
 */
export function remainingSteps(
  call:
    | { kind: "root" }
    | { kind: "children"; depth: number }
    | { kind: "analysis"; depth: number; analysesLeft: number }
    | { kind: "report" },
  { depth: maxDepth, pagesPerQuery, analyzeConcurrency }: { depth: number; pagesPerQuery: number; analyzeConcurrency: number },
): number {
  const rounds = (pages: number) => Math.ceil(pages / analyzeConcurrency);
  // Steps of the levels below depth d: each level's analyses, and child generation above the last.
  const below = (d: number) => {
    let steps = 0;
    for (let level = d + 1; level <= maxDepth; level++) steps += rounds(pagesPerQuery) + (level < maxDepth ? 1 : 0);
    return steps;
  };
  switch (call.kind) {
    case "root":
      return 1 + below(0);
    case "children":
      return 1 + below(call.depth);
    case "analysis":
      return rounds(call.analysesLeft) + (call.depth < maxDepth ? 1 : 0) + below(call.depth);
    case "report":
      return 1;
  }
}
