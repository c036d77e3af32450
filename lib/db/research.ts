// Query functions for researches. `userId` scopes every lookup by owner; `undefined` is for the
// engine itself (runner, resume), which acts on behalf of the research's owner.
import { db } from "./client";
import { queryDirect, type RowTypes } from "./direct";
import { Prisma } from "../generated/prisma/client";
import { containsIgnoringCase } from "./portable";
import type { Research, ResearchGraph, TokenUsage } from "./types";
import type { ResearchStatus } from "../types";

export type Owner = { userId?: string | null };

/** The research's own rows a view shows besides its query pages: queries, and its follow-up links. */
const GRAPH_INCLUDE = {
  queries: true,
  parentResearch: { select: { id: true, initialPrompt: true } },
  followUps: { select: { id: true, initialPrompt: true, status: true, parentQueryId: true, createdAt: true }, orderBy: { createdAt: "asc" } },
} as const;

/** A query page as views and events show it: the page without its text, and the extracted items. */
export const QUERY_PAGE_ROW = { page: { omit: { content: true } }, items: true } as const;

function ownerWhere({ userId }: Owner) {
  return userId === undefined ? {} : { userId };
}

/** The owner condition in plain SQL: the research's user, or any research when no user is given (`undefined`: an internal read). */
function ownerSql({ userId }: Owner): Prisma.Sql {
  if (userId === undefined) return Prisma.empty;
  return userId === null ? Prisma.sql` AND "userId" IS NULL` : Prisma.sql` AND "userId" = ${userId}`;
}

/** How a research row read in plain SQL comes back: its times and booleans (see RowTypes). */
export const RESEARCH_ROW: RowTypes = { dates: ["createdAt", "updatedAt", "startedAt", "completedAt", "pausedAt"], booleans: ["rootQueriesGenerated"] };

/** Every column of Research but its report, for a SELECT list. */
const RESEARCH_COLUMNS_BUT_REPORT = Prisma.raw(
  Object.values(Prisma.ResearchScalarFieldEnum).filter((c) => c !== "report").map((c) => `"${c}"`).join(", "),
);

/** A draft research with its follow-up questions, and the tokens spent writing them. */
export async function createResearch({
  userId,
  initialPrompt,
  questions,
  usage,
  followUp,
}: {
  userId: string | null;
  initialPrompt: string;
  questions: string[];
  usage?: TokenUsage;
  /** A follow-up of another research: which one (and which branch of it), and what it had found. */
  followUp?: { parentResearchId: string; parentQueryId: string | null; background: string };
}) {
  return db.research.create({
    data: {
      ...followUp,
      userId,
      initialPrompt,
      followupQuestions: JSON.stringify(questions),
      status: "draft",
      ...(usage ? { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, llmCalls: usage.calls } : {}),
    },
  });
}

export async function getResearch({ id, ...owner }: { id: string } & Owner) {
  return db.research.findFirst({ where: { id, ...ownerWhere(owner) } });
}

/** Whether the research exists (and is the owner's), without reading its report. */
export async function researchExists({ id, ...owner }: { id: string } & Owner): Promise<boolean> {
  return (await db.research.findFirst({ where: { id, ...ownerWhere(owner) }, select: { id: true } })) !== null;
}

export async function loadResearchGraph({ id, ...owner }: { id: string } & Owner): Promise<ResearchGraph | null> {
  const research = await db.research.findFirst({ where: { id, ...ownerWhere(owner) }, include: GRAPH_INCLUDE });
  if (!research) return null;
  const queryPages = await db.queryPage.findMany({
    where: { query: { researchId: id } },
    include: QUERY_PAGE_ROW,
  });
  return { ...research, queryPages };
}

/**
 * The tree's order of a research's queries, total: by level, then creation, then parent and position
 * (two parents' children can be created in the same millisecond), then id. Every view lists queries in
 * this order, so the lean and full views agree on PostgreSQL and SQLite alike.
 */
export const SERP_QUERY_ORDER = Prisma.raw(`"depth", "createdAt", "parentId", "position", "id"`);

/** What the lean status view is made of: the research row without its report, and each query page's status and item count. */
export async function loadResearchStatusRows({ id, ...owner }: { id: string } & Owner) {
  // Plain statements (lib/db/direct.ts): a client polls this view while the research runs.
  const [[row], queries, queryPages] = await Promise.all([
    queryDirect<Omit<Research, "report"> & { hasReport: number | boolean | bigint }>(Prisma.sql`
      SELECT ${RESEARCH_COLUMNS_BUT_REPORT}, CASE WHEN "report" IS NULL THEN 0 ELSE 1 END AS "hasReport"
      FROM "Research" WHERE "id" = ${id}${ownerSql(owner)}`, RESEARCH_ROW),
    queryDirect<{ id: string; parentId: string | null; depth: number; position: number; status: string; text: string; createdAt: Date }>(Prisma.sql`
      SELECT "id", "parentId", "depth", "position", "status", "text", "createdAt" FROM "SerpQuery"
      WHERE "researchId" = ${id} ORDER BY ${SERP_QUERY_ORDER}`, { dates: ["createdAt"] }),
    queryDirect<{ queryId: string; status: string; pageStatus: string; items: number | bigint | string }>(Prisma.sql`
      SELECT qp."queryId" AS "queryId", qp."status" AS "status", p."status" AS "pageStatus",
        (SELECT COUNT(*) FROM "ExtractedItem" i WHERE i."queryPageId" = qp."id") AS "items"
      FROM "QueryPage" qp JOIN "SerpQuery" q ON q."id" = qp."queryId" JOIN "Page" p ON p."id" = qp."pageId"
      WHERE q."researchId" = ${id}`),
  ]);
  // The children were read in the same round trip, and are dropped for another owner's research.
  if (!row) return null;
  const { hasReport, ...research } = row;
  return {
    research,
    hasReport: Number(hasReport) === 1,
    queries,
    queryPages: queryPages.map((qp) => ({ queryId: qp.queryId, status: qp.status, page: { status: qp.pageStatus }, _count: { items: Number(qp.items) } })),
  };
}

export async function listResearches({
  status,
  search,
  limit,
  cursor,
  ...owner
}: Owner & { status?: ResearchStatus; search?: string; limit: number; cursor?: string }) {
  const rows = await db.research.findMany({
    where: {
      ...ownerWhere(owner),
      // A Deep Research task's tree belongs to its conversation, not to the history.
      conversationId: null,
      ...(status ? { status } : {}),
      ...(search ? { initialPrompt: containsIgnoringCase(search) } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
  });
  return { rows: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1].id : null };
}

/** Starts a draft with its answers (and, when given, a revised prompt and questions). False if it was no longer a draft. */
export async function saveStartParameters({
  id,
  answers,
  depth,
  breadth,
  initialPrompt,
  questions,
  sources,
}: {
  id: string;
  answers: string[];
  depth: number;
  breadth: number;
  initialPrompt?: string;
  questions?: string[];
  /** JSON { web, collections }. */
  sources?: string;
}) {
  // Only a draft can start: a second start of the same research is refused by the caller.
  const { count } = await db.research.updateMany({
    where: { id, status: "draft" },
    data: {
      ...(initialPrompt !== undefined ? { initialPrompt } : {}),
      ...(questions !== undefined ? { followupQuestions: JSON.stringify(questions) } : {}),
      ...(sources !== undefined ? { sources } : {}),
      followupAnswers: JSON.stringify(answers),
      depth,
      breadth,
      status: "running",
      startedAt: new Date(),
    },
  });
  return count === 1;
}

/** The user's researches that were started (not drafts), newest first, for pickers. */
export async function listStartedResearches({ userId, limit }: { userId: string; limit: number }) {
  return db.research.findMany({
    where: { userId, status: { not: "draft" }, conversationId: null },
    orderBy: { createdAt: "desc" },
    take: limit,
    select: { id: true, initialPrompt: true, status: true, createdAt: true },
  });
}

/** The ids of the user's running researches (for the per-user limit). */
export async function runningResearchIds({ userId }: { userId: string }): Promise<string[]> {
  const rows = await db.research.findMany({ where: { userId, status: "running", conversationId: null }, select: { id: true } });
  return rows.map((r) => r.id);
}

/** The start times of the user's running researches (for when a slot frees). */
export async function listRunningResearchStarts({ userId }: { userId: string }): Promise<Date[]> {
  const rows = await db.research.findMany({ where: { userId, status: "running", conversationId: null }, select: { startedAt: true, createdAt: true } });
  return rows.map((r) => r.startedAt ?? r.createdAt);
}

/** How long the user's last finished researches took, in milliseconds, newest first. */
export async function recentResearchDurations({ userId, limit }: { userId: string; limit: number }): Promise<number[]> {
  const rows = await db.research.findMany({
    where: { userId, conversationId: null, status: { in: ["completed", "failed"] }, startedAt: { not: null }, completedAt: { not: null } },
    select: { startedAt: true, completedAt: true },
    orderBy: { completedAt: "desc" },
    take: limit,
  });
  return rows.map((r) => r.completedAt!.getTime() - r.startedAt!.getTime());
}

/** When the user's researches started since `since`, oldest first, at most `limit` of them. */
export async function listStartTimes({ userId, since, limit }: { userId: string; since: Date; limit: number }): Promise<Date[]> {
  const rows = await db.research.findMany({
    where: { userId, startedAt: { gte: since }, conversationId: null },
    select: { startedAt: true },
    orderBy: { startedAt: "asc" },
    take: limit,
  });
  return rows.map((r) => r.startedAt!);
}

export async function deleteResearch({ id, ...owner }: { id: string } & Owner) {
  const { count } = await db.research.deleteMany({ where: { id, ...ownerWhere(owner) } });
  return count === 1;
}

export async function countExtractedItems({ researchId }: { researchId: string }) {
  return db.extractedItem.count({ where: { researchId } });
}

/**
 * A page of a research's extracted items (GET /api/research/:id/items), in the order of their
 * query pages and positions; `after` is the last item id of the previous page. Optionally one
 * query's or one query page's items only. The caller checks ownership first.
 */
export async function listExtractedItems({
  researchId,
  queryId,
  pageId,
  after,
  limit,
}: {
  researchId: string;
  queryId?: string;
  pageId?: string;
  after?: string;
  limit: number;
}) {
  const rows = await db.extractedItem.findMany({
    where: { researchId, ...(queryId || pageId ? { queryPage: { ...(queryId ? { queryId } : {}), ...(pageId ? { pageId } : {}) } } : {}) },
    select: { id: true, content: true, url: true, position: true, queryPage: { select: { queryId: true, pageId: true } } },
    orderBy: [{ queryPageId: "asc" }, { position: "asc" }],
    ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    take: limit + 1,
  });
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}
