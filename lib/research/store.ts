// The runner's persistence: every state change is written here before its event is emitted.
// Each write is idempotent or guarded, so that a step re-run after a crash cannot duplicate rows.
import { db } from "../db/client";
import { QUERY_PAGE_ROW } from "../db/research";
import { skipDuplicatesOnPostgres } from "../db/portable";
import { Prisma, type Page, type SerpQuery } from "../generated/prisma/client";
import type { TokenCount } from "../ai/usage";
import type { SerpQueryDraft, ChainLink } from "../agents/generate-serp-queries";
import type { SearchResult } from "../search";
import type { QueryPageRow } from "./public-shape";
import type { QueryStatus } from "../types";

export async function loadResearch(id: string) {
  return db.research.findUnique({ where: { id } });
}

export async function queriesOf(researchId: string) {
  return db.serpQuery.findMany({ where: { researchId }, orderBy: [{ depth: "asc" }, { createdAt: "asc" }, { position: "asc" }] });
}

/** Creates the root queries once; returns [] if another attempt already did. */
export async function createRootQueries(researchId: string, drafts: SerpQueryDraft[], levelBreadth: number): Promise<SerpQuery[]> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.research.updateMany({ where: { id: researchId, rootQueriesGenerated: false }, data: { rootQueriesGenerated: true } });
    if (count === 0) return [];
    const created: SerpQuery[] = [];
    for (const [position, d] of drafts.entries()) {
      created.push(
        await tx.serpQuery.create({ data: { researchId, depth: 1, position, text: d.query, objective: d.objective, levelBreadth } }),
      );
    }
    return created;
  });
}

/** Creates a query's children once; returns [] if they exist already. */
export async function createChildQueries(parent: SerpQuery, drafts: SerpQueryDraft[], levelBreadth: number): Promise<SerpQuery[]> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.serpQuery.updateMany({ where: { id: parent.id, childrenGenerated: false }, data: { childrenGenerated: true } });
    if (count === 0) return [];
    const created: SerpQuery[] = [];
    for (const [position, d] of drafts.entries()) {
      created.push(
        await tx.serpQuery.create({
          data: { researchId: parent.researchId, parentId: parent.id, depth: parent.depth + 1, position, text: d.query, objective: d.objective, levelBreadth },
        }),
      );
    }
    return created;
  });
}

export async function setQueryStatus(id: string, status: QueryStatus, extra: { error?: string | null; startedAt?: Date; completedAt?: Date } = {}) {
  return db.serpQuery.update({ where: { id }, data: { status, ...extra } });
}

/**
 * Saves a query's search results in one transaction: each URL once per research (Page), linked to
 * this query (QueryPage), and the query moves to `scraping`. Returns the query and its rows. The
 * rows exist exactly when the query is past `searching`, so a re-run after a crash cannot duplicate them.
 */
export async function attachSearchResults(query: SerpQuery, results: SearchResult[]): Promise<{ query: SerpQuery; rows: QueryPageRow[] }> {
  const byUrl = new Map<string, SearchResult>();
  for (const r of results) if (!byUrl.has(r.url)) byUrl.set(r.url, r);
  const urls = [...byUrl.keys()];
  const { researchId } = query;
  return db.$transaction(async (tx) => {
    const known = new Set((await tx.page.findMany({ where: { researchId, url: { in: urls } }, select: { url: true } })).map((p) => p.url));
    const missing = urls.filter((url) => !known.has(url));
    if (missing.length > 0) {
      // Sibling queries of one research attach at the same time: on PostgreSQL another may insert the same URL first.
      await tx.page.createMany({ data: missing.map((url) => ({ researchId, url, title: byUrl.get(url)!.title || null })), ...skipDuplicatesOnPostgres() });
    }
    const pages = await tx.page.findMany({ where: { researchId, url: { in: urls } }, select: { id: true, url: true } });
    const pageIds = new Map(pages.map((p) => [p.url, p.id]));
    await tx.queryPage.createMany({ data: urls.map((url, position) => ({ queryId: query.id, pageId: pageIds.get(url)!, position })) });
    const updated = await tx.serpQuery.update({ where: { id: query.id }, data: { status: "scraping" } });
    const rows = await tx.queryPage.findMany({ where: { queryId: query.id }, include: QUERY_PAGE_ROW, orderBy: { position: "asc" } });
    return { query: updated, rows };
  });
}

export async function queryPagesOfQuery(queryId: string): Promise<QueryPageRow[]> {
  return db.queryPage.findMany({ where: { queryId }, include: QUERY_PAGE_ROW, orderBy: { position: "asc" } });
}

export async function queryPagesOfPage(pageId: string): Promise<QueryPageRow[]> {
  return db.queryPage.findMany({ where: { pageId }, include: QUERY_PAGE_ROW });
}

export async function updatePage(id: string, data: Partial<Pick<Page, "status" | "title" | "content" | "contentType" | "error" | "fetchedAt">>) {
  return db.page.update({ where: { id }, data });
}

/** A page with its text, for analysis. */
export async function getPage(id: string) {
  return db.page.findUniqueOrThrow({ where: { id } });
}

// The two writes below run once per analysed page (hundreds per research): they are plain SQL,
// standard enough for SQLite and PostgreSQL alike, because a Prisma model operation costs ~5× the
// CPU of the same statement raw (the benchmark's figures are in bench/README.md).

/**
 * Saves a page's extracted items, then marks it analysed. No transaction is needed: item ids are the
 * query page's and the position, so a re-run after a crash between the two statements inserts
 * nothing twice, and a pending row that already has items is taken as analysed (see processQuery).
 * False if the row was no longer pending.
 */
export async function saveAnalysis(queryPageId: string, researchId: string, url: string, items: string[]): Promise<boolean> {
  const now = new Date();
  if (items.length > 0) {
    const values = items.map(
      (content, position) => Prisma.sql`(${`${queryPageId}:${position}`}, ${queryPageId}, ${researchId}, ${content}, ${url}, ${position}, ${now})`,
    );
    await db.$executeRaw`
      INSERT INTO "ExtractedItem" ("id", "queryPageId", "researchId", "content", "url", "position", "createdAt")
      VALUES ${Prisma.join(values)} ON CONFLICT DO NOTHING`;
  }
  const count = await db.$executeRaw`
    UPDATE "QueryPage" SET "status" = 'analyzed', "analyzedAt" = ${now}, "error" = NULL
    WHERE "id" = ${queryPageId} AND "status" = 'pending'`;
  return count === 1;
}

/** Marks a query's page failed. False if it was not pending. */
export async function failQueryPage(queryPageId: string, error: string): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE "QueryPage" SET "status" = 'failed', "error" = ${error} WHERE "id" = ${queryPageId} AND "status" = 'pending'`;
  return count === 1;
}

/** Adds token usage to the research and to each query it was spent for, in one transaction. */
export async function addUsage(researchId: string, total: TokenCount, perQuery: Map<string, TokenCount>) {
  const increments = (t: TokenCount) => ({ promptTokens: { increment: t.promptTokens }, completionTokens: { increment: t.completionTokens } });
  await db.$transaction([
    db.research.update({ where: { id: researchId }, data: { ...increments(total), llmCalls: { increment: total.calls } } }),
    ...[...perQuery].map(([id, t]) => db.serpQuery.update({ where: { id }, data: increments(t) })),
  ]);
}

/** Each query of a chain (root first) with its learnings, read in one query. */
export async function chainLearnings(chain: SerpQuery[]): Promise<ChainLink[]> {
  const items = await db.extractedItem.findMany({
    where: { queryPage: { queryId: { in: chain.map((q) => q.id) } } },
    select: { content: true, url: true, queryPage: { select: { queryId: true } } },
    orderBy: [{ queryPage: { position: "asc" } }, { position: "asc" }],
  });
  return chain.map((q) => ({
    query: q.text,
    objective: q.objective,
    learnings: items.filter((i) => i.queryPage.queryId === q.id).map(({ content, url }) => ({ content, url })),
  }));
}

/** Every extracted item with the root query of its branch. */
export async function learningsByBranch(researchId: string) {
  const [queries, items] = await Promise.all([
    db.serpQuery.findMany({ where: { researchId }, select: { id: true, parentId: true, text: true } }),
    db.extractedItem.findMany({
      where: { researchId },
      include: { queryPage: { select: { queryId: true } } },
      orderBy: [{ createdAt: "asc" }, { position: "asc" }],
    }),
  ]);
  const byId = new Map(queries.map((q) => [q.id, q]));
  const rootOf = (id: string) => {
    let q = byId.get(id);
    while (q?.parentId) q = byId.get(q.parentId);
    return q;
  };
  return items.map((i) => {
    const root = rootOf(i.queryPage.queryId);
    return { content: i.content, url: i.url, branchId: root?.id ?? "", branchQuery: root?.text ?? "" };
  });
}

export async function finishResearch(id: string, data: { status: "completed" | "failed"; report?: string | null; error?: string | null }) {
  return db.research.update({ where: { id }, data: { ...data, completedAt: new Date() } });
}

export async function markCancelled(id: string) {
  const { count } = await db.research.updateMany({ where: { id, status: "running" }, data: { status: "cancelled", completedAt: new Date() } });
  return count === 1;
}
