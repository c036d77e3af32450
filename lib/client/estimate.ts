// What a depth × breadth choice implies before a research starts: the tree arithmetic of the
// engine (b1 = breadth, b(d+1) = ceil(b(d) / 2); a query at depth d < depth gets b(d+1) children).
import type { SerpQueryView } from "@/lib/types";

/** Pages fetched per query at most: SearXNG results are capped at 7 per query. */
export const MAX_PAGES_PER_QUERY = 7;

/** Children per parent at each level: [b1, b2, …, b_depth]. */
export function levelBreadths(depth: number, breadth: number): number[] {
  const out: number[] = [];
  let b = Math.max(1, Math.floor(breadth));
  for (let d = 1; d <= depth; d++) {
    out.push(b);
    b = Math.ceil(b / 2);
  }
  return out;
}

/** Queries at each level: level d holds b1·b2·…·bd. */
export function levelSizes(depth: number, breadth: number): number[] {
  let product = 1;
  return levelBreadths(depth, breadth).map((b) => (product *= b));
}

export interface ResearchEstimate {
  levels: number[];
  queries: number;
  /** Queries above the last level: each makes one child-generation call. */
  parentQueries: number;
  maxPages: number;
  /** 1 (questions) + 1 (root queries) + parents + 1 (report): the calls that always happen. */
  minLlmCalls: number;
  /** As above plus one analysis per page, at most 7 per query. */
  maxLlmCalls: number;
}

export function estimateResearch(depth: number, breadth: number): ResearchEstimate {
  const levels = levelSizes(depth, breadth);
  const queries = levels.reduce((a, b) => a + b, 0);
  const parentQueries = queries - (levels.at(-1) ?? 0);
  const maxPages = queries * MAX_PAGES_PER_QUERY;
  const minLlmCalls = 1 + 1 + parentQueries + 1;
  return { levels, queries, parentQueries, maxPages, minLlmCalls, maxLlmCalls: minLlmCalls + maxPages };
}

/** Size of the subtree under a query at `atDepth` (excluding itself) once it is fully grown. */
export function descendantsBelow(atDepth: number, depth: number, breadth: number): number {
  const b = levelBreadths(depth, breadth);
  let total = 0;
  let product = 1;
  for (let d = atDepth + 1; d <= depth; d++) {
    product *= b[d - 1];
    total += product;
  }
  return total;
}

/**
 * The number of queries this research will end with: the planned tree, less the descendants that
 * failed queries will never get (a failed query ends its branch).
 */
export function expectedQueryTotal(
  depth: number | null,
  breadth: number | null,
  queries: Pick<SerpQueryView, "depth" | "status">[],
): number {
  if (!depth || !breadth) return queries.length;
  let total = estimateResearch(depth, breadth).queries;
  for (const q of queries) {
    if (q.status === "failed") total -= descendantsBelow(q.depth, depth, breadth);
  }
  return Math.max(total, queries.length);
}
