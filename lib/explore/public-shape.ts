// Maps database rows to the public shapes (seed field names) in one place.
import { parseStringArray } from "../db/json";
import type { ExtractedItem, Page, QueryPage, Research, ResearchGraph, SerpQuery } from "../db/types";
import type {
  QueryStatus,
  ResearchStatus,
  ResearchSummary,
  ResearchData,
  ResearchStatusView,
  RunStatusData,
  SerpQueryView,
  WebsiteStatus,
  WebsiteView,
} from "../types";

// The row shapes are lib/db's; re-exported for the modules that import them from here.
export type { PageSummary, QueryPageRow, ResearchGraph, WebsiteRow } from "../db/types";
import type { WebsiteRow } from "../db/types";
export { parseStringArray };


const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function toQueryView(q: SerpQuery): SerpQueryView {
  return {
    query_id: q.id,
    parent_query_id: q.parentId,
    depth: q.depth,
    position: q.position,
    text: q.text,
    objective: q.objective,
    status: q.status as QueryStatus,
    level_breadth: q.levelBreadth,
    error_message: q.error,
    prompt_tokens: q.promptTokens,
    completion_tokens: q.completionTokens,
    created_at: q.createdAt.toISOString(),
    started_at: iso(q.startedAt),
    completed_at: iso(q.completedAt),
  };
}

export function websiteStatus(qp: Pick<QueryPage, "status">, page: Pick<Page, "status">): WebsiteStatus {
  if (qp.status === "analyzed") return "analyzed";
  if (qp.status === "failed" || page.status === "failed") return "failed";
  // The research ended before this query analysed the page (fetched or not): a resume continues it.
  if (qp.status === "stopped") return "stopped";
  return page.status as WebsiteStatus;
}

export function toWebsiteView(qp: WebsiteRow): WebsiteView {
  const items = [...qp.items].sort((a, b) => a.position - b.position).map((i) => ({ content: i.content, url: i.url }));
  return {
    id: `${qp.queryId}:${qp.pageId}`,
    query_id: qp.queryId,
    url: qp.page.url,
    title: qp.page.title,
    status: websiteStatus(qp, qp.page),
    content: items.map((i) => `- ${i.content}`).join("\n"),
    items,
    error_message: qp.error ?? qp.page.error,
  };
}

export function toRunStatus(r: Omit<Research, "report">): RunStatusData {
  return {
    status: r.status as ResearchStatus,
    error: r.error,
    tokens: {
      prompt: r.promptTokens,
      completion: r.completionTokens,
      total: r.promptTokens + r.completionTokens,
      llm_calls: r.llmCalls,
      llm_calls_unsettled: r.llmCallsUnsettled,
    },
    paused: r.pausedAt && r.status === "running" ? { reason: r.pauseReason ?? "Waiting for the LLM provider", since: r.pausedAt.toISOString() } : null,
    warnings: parseStringArray(r.warnings),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
  };
}

/** What the full view and the lean status view both say of a research: who it is and how its run went. */
function researchBase(r: Omit<Research, "report">) {
  const run = toRunStatus(r);
  return {
    research_id: r.id,
    initial_prompt: r.initialPrompt,
    depth: r.depth,
    breadth: r.breadth,
    status: run.status,
    error: r.error,
    tokens: run.tokens,
    paused: run.paused,
    warnings: run.warnings,
    created_at: r.createdAt.toISOString(),
    started_at: run.started_at,
    completed_at: run.completed_at,
  };
}

/** The rows of the lean status view (lib/db/research.ts loadResearchStatusRows). */
export interface StatusRows {
  research: Omit<Research, "report">;
  hasReport: boolean;
  queries: Pick<SerpQuery, "id" | "parentId" | "depth" | "status" | "text">[];
  queryPages: (Pick<QueryPage, "queryId" | "status"> & { page: Pick<Page, "status">; _count: { items: number } })[];
}

/** The lean status view: counts and the tree's shape (no items, no report text). */
export function toResearchStatusView({ research: r, hasReport, queries, queryPages }: StatusRows): Omit<ResearchStatusView, "links"> {
  const perQuery = new Map<string, { pages: Partial<Record<WebsiteStatus, number>>; items: number }>();
  const pages: Partial<Record<WebsiteStatus, number>> = {};
  let items = 0;
  for (const qp of queryPages) {
    const status = websiteStatus(qp, qp.page);
    const q = perQuery.get(qp.queryId) ?? { pages: {}, items: 0 };
    q.pages[status] = (q.pages[status] ?? 0) + 1;
    q.items += qp._count.items;
    perQuery.set(qp.queryId, q);
    pages[status] = (pages[status] ?? 0) + 1;
    items += qp._count.items;
  }
  return {
    ...researchBase(r),
    has_report: hasReport,
    counts: { queries: queries.length, pages, items },
    serp_queries: queries.map((q) => ({
      query_id: q.id,
      parent_query_id: q.parentId,
      depth: q.depth,
      status: q.status as QueryStatus,
      text: q.text,
      pages: perQuery.get(q.id)?.pages ?? {},
      items: perQuery.get(q.id)?.items ?? 0,
    })),
  };
}

export function toResearchSummary(r: Research): ResearchSummary {
  return {
    research_id: r.id,
    initial_prompt: r.initialPrompt,
    status: r.status as ResearchStatus,
    depth: r.depth,
    breadth: r.breadth,
    created_at: r.createdAt.toISOString(),
    completed_at: iso(r.completedAt),
  };
}

const compareIds = (a: string | null, b: string | null) => ((a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0);

/** The tree's order of queries, as SERP_QUERY_ORDER (lib/db/research.ts) sorts them in SQL. */
export function byTreeOrder(a: SerpQuery, b: SerpQuery): number {
  return a.depth - b.depth || a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a.parentId, b.parentId) || a.position - b.position || compareIds(a.id, b.id);
}

export function toResearchView(r: ResearchGraph, now = Date.now()): ResearchData {
  const queries = [...r.queries].sort(byTreeOrder);
  const websites = [...r.queryPages]
    .sort((a, b) => a.queryId.localeCompare(b.queryId) || a.position - b.position)
    .map(toWebsiteView);
  const end = r.completedAt?.getTime() ?? (r.status === "running" ? now : null);
  return {
    ...researchBase(r),
    followup_questions: parseStringArray(r.followupQuestions),
    followup_answers: parseStringArray(r.followupAnswers),
    report: r.report,
    serp_queries: queries.map(toQueryView),
    successful_scraped_websites: websites,
    elapsed_ms: r.startedAt && end ? end - r.startedAt.getTime() : null,
    follows: r.parentResearch ? { research_id: r.parentResearch.id, initial_prompt: r.parentResearch.initialPrompt, query_id: r.parentQueryId } : null,
    follow_ups: r.followUps.map((f) => ({
      research_id: f.id,
      initial_prompt: f.initialPrompt,
      status: f.status as ResearchStatus,
      query_id: f.parentQueryId,
      created_at: f.createdAt.toISOString(),
    })),
  };
}
