// What a depth × breadth choice implies before a research starts, from the engine's own tree
// arithmetic (lib/tree-arithmetic.ts: b1 = breadth, b(d+1) = ceil(b(d) / 2)).
import { descendantsBelow, levelBreadths, queriesPerLevel } from "@/lib/tree-arithmetic";
import type { SerpQueryView } from "@/lib/types";

/** Pages fetched per query at most: SearXNG results are capped at 7 per query. */
export const MAX_PAGES_PER_QUERY = 7;

/** Queries at each level: level d holds b1·b2·…·bd. */
export const levelSizes = queriesPerLevel;
export { descendantsBelow, levelBreadths };

/**
 * The engine's retry limits that can multiply LLM calls (defaults; lib/explore/call-bound.test.ts
 * checks them against the engine's own constants): repair attempts of one structured call
 * (LLM_REPAIR_ATTEMPTS), repair rounds of one query planning (QUERY_REPAIR_ROUNDS) and later tries
 * of a planning whose call was lost (the runner's plan retries).
 */
export const CALL_RETRY_LIMITS = { repairAttempts: 2, queryRepairRounds: 3, planRetries: 2 };
export type CallRetryLimits = typeof CALL_RETRY_LIMITS;

export interface ResearchEstimate {
  levels: number[];
  queries: number;
  /** Queries above the last level: each makes one child-generation call. */
  parentQueries: number;
  maxPages: number;
  /** 1 (questions) + 1 (root queries) + parents + 1 (report): the calls that always happen. */
  minLlmCalls: number;
  /**
   * Every reply valid the first time: the calls above, one analysis per page (at most 7 per query),
   * and a summary per root branch when the findings are too large for one report call.
   */
  maxLlmCalls: number;
  /** The hard ceiling: every structured reply repaired, every planning repaired and tried again. */
  worstLlmCalls: number;
}

export function estimateResearch(depth: number, breadth: number, limits: CallRetryLimits = CALL_RETRY_LIMITS): ResearchEstimate {
  const levels = levelSizes(depth, breadth);
  const queries = levels.reduce((a, b) => a + b, 0);
  const parentQueries = queries - (levels.at(-1) ?? 0);
  const maxPages = queries * MAX_PAGES_PER_QUERY;
  const minLlmCalls = 1 + 1 + parentQueries + 1;
  const branchSummaries = levels[0] ?? 0;
  const structured = limits.repairAttempts + 1;
  const perPlanning = (limits.planRetries + 1) * (limits.queryRepairRounds + 1) * structured;
  const worstLlmCalls = structured + (1 + parentQueries) * perPlanning + maxPages * structured + 1 + branchSummaries;
  return { levels, queries, parentQueries, maxPages, minLlmCalls, maxLlmCalls: minLlmCalls + maxPages + branchSummaries, worstLlmCalls };
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
