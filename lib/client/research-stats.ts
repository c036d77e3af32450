// Counters of a live research, derived from its rows. What is counted has one name everywhere:
// "page analyses" (a query reading a page: query × page), "sources read" (distinct URLs analysed at
// least once) and "sources cited" (the report's numbered source list).
import type { LiveResearchView } from "@/lib/types";
import { expectedQueryTotal } from "./estimate";
import { shownQueries } from "./query-tree";
import { shownWebsiteStatus } from "./sources";

export interface ResearchStats {
  queriesDone: number;
  queriesFailed: number;
  /** Interrupted by a failure or a cancel; a resume picks them up again. */
  queriesStopped: number;
  queriesTotal: number;
  pagesAnalyzed: number;
  pagesFailed: number;
  pagesStopped: number;
  pagesTotal: number;
  /** Distinct URLs at least one query analysed (a page read by three queries is one source). */
  sourcesRead: number;
  /** Distinct URLs the searches returned, read or not. */
  sourcesFound: number;
  /** 0..1 */
  progress: number;
  phase: "starting" | "researching" | "writing" | "done";
}

export function researchStats(r: LiveResearchView, reportDraft: string | null): ResearchStats {
  const queries = shownQueries(r.serp_queries, r.status);
  const queriesDone = queries.filter((q) => q.status === "completed" || q.status === "failed").length;
  const queriesFailed = queries.filter((q) => q.status === "failed").length;
  const queriesStopped = queries.filter((q) => q.status === "stopped").length;
  const queriesTotal = expectedQueryTotal(r.depth, r.breadth, queries);
  const sites = r.successful_scraped_websites;
  const pagesAnalyzed = sites.filter((w) => w.status === "analyzed").length;
  const pagesFailed = sites.filter((w) => w.status === "failed").length;
  const pagesStopped = sites.filter((w) => shownWebsiteStatus(w.status, r.status) === "stopped").length;
  const sourcesRead = new Set(sites.filter((w) => w.status === "analyzed").map((w) => w.url)).size;
  const sourcesFound = new Set(sites.map((w) => w.url)).size;

  let phase: ResearchStats["phase"];
  if (r.status === "completed" || r.status === "failed" || r.status === "cancelled") phase = "done";
  else if (reportDraft !== null || (queriesTotal > 0 && queriesDone >= queriesTotal)) phase = "writing";
  else if (queries.length === 0) phase = "starting";
  else phase = "researching";

  // Queries are 90% of the work; the report is the rest.
  let progress = queriesTotal > 0 ? (queriesDone / queriesTotal) * 0.9 : 0;
  if (phase === "writing") progress = 0.92;
  if (r.status === "completed") progress = 1;
  return { queriesDone, queriesFailed, queriesStopped, queriesTotal, pagesAnalyzed, pagesFailed, pagesStopped, pagesTotal: sites.length, sourcesRead, sourcesFound, progress, phase };
}

export function elapsedMs(r: LiveResearchView, now: number): number | null {
  if (!r.started_at) return null;
  const start = Date.parse(r.started_at);
  if (r.completed_at) return Date.parse(r.completed_at) - start;
  if (r.status === "running") return now - start;
  return r.elapsed_ms;
}

/** Whether a research has findings a report could be written from (what write-report requires). */
export function hasFindings(r: LiveResearchView): boolean {
  return r.successful_scraped_websites.some((w) => w.item_count > 0);
}

/**
 * A completed research whose report was written from what it found before it stopped (write-report
 * after a failure or a cancel): the queries it interrupted stay `stopped`.
 */
export function reportFromPartialFindings(r: LiveResearchView): boolean {
  return r.status === "completed" && r.serp_queries.some((q) => q.status === "stopped");
}
