// What a depth × breadth choice implies before a research starts, from the engine's own tree
// arithmetic (lib/tree-arithmetic.ts: b1 = breadth, b(d+1) = ceil(b(d) / 2)).
import { descendantsBelow, levelBreadths, queriesPerLevel } from "@/lib/tree-arithmetic";
import type { SerpQueryView } from "@/lib/types";

/** Pages fetched per query at most: SearXNG results are capped at 7 per query. */
export const MAX_PAGES_PER_QUERY = 7;

/** Queries at each level: level d holds b1·b2·…·bd. */
export const levelSizes = queriesPerLevel;
export { descendantsBelow, levelBreadths };

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
