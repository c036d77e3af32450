// Query functions for the research tree (queries, pages, query pages, extracted items) and the
// runner's writes to its research: every state change is written here before its event is emitted.
// Each write is idempotent or guarded, so that a step re-run after a crash cannot duplicate rows.
// The engine calls these as `store.xyz(...)` (import * as store from "../db/tree").
import { db } from "./client";
import { randomUUID } from "node:crypto";
import { executeDirect, queryDirect, transactionDirect, type DirectTx, type RowTypes } from "./direct";
import { usageCounters } from "./combined-counters";
import { GroupCommit } from "./group-commit";
import { getEnv } from "../env";
import { databaseProvider } from "./database-url";
import { parseStringArray } from "./json";
import { QUERY_PAGE_ROW, RESEARCH_ROW as RESEARCH, SERP_QUERY_ORDER } from "./research";
import type { ExtractedItem, Page, QueryDraft, Research, QueryLearnings, QueryPageRow, SearchHit, SerpQuery, TokenUsage } from "./types";
import { Prisma } from "../generated/prisma/client";
import type { QueryStatus } from "../types";

// A query's path through the tree (created, searching, its results attached, analysing, completed)
// runs for every query of a research, on plain SQL (lib/db/direct.ts): each Prisma model operation
// compiles a query plan on the event loop, and these were ~12 of them per query.

/** How the tables' rows read here come back: their times and booleans (see RowTypes). */
const SERP_QUERY: RowTypes = { dates: ["createdAt", "startedAt", "completedAt"], booleans: ["childrenGenerated"] };
const QUERY_PAGE: RowTypes = { dates: ["createdAt", "analyzedAt", "page_createdAt", "page_fetchedAt"] };
const PAGE_ROW: RowTypes = { dates: ["createdAt", "fetchedAt"] };

/** A page's columns as a query's rows show it (all but the text), and the same under a join's `p` as "page_<column>". */
const PAGE_ROW_COLUMNS = ["id", "researchId", "url", "status", "title", "contentType", "error", "createdAt", "fetchedAt", "author", "published"] as const;
const PAGE_COLUMNS = Prisma.raw(PAGE_ROW_COLUMNS.map((c) => `"${c}"`).join(", "));
const PAGE_COLUMNS_PREFIXED = Prisma.raw(PAGE_ROW_COLUMNS.map((c) => `p."${c}" AS "page_${c}"`).join(", "));
type PrefixedPage = { [K in keyof QueryPageRow["page"] as `page_${K}`]: QueryPageRow["page"][K] };
const pageOfPrefixed = (r: PrefixedPage) => Object.fromEntries(PAGE_ROW_COLUMNS.map((c) => [c, r[`page_${c}`]])) as QueryPageRow["page"];

/** The statuses a query's search results attach in (a stopped query resumed searches again). */
const ATTACHABLE = Prisma.sql`('pending', 'searching', 'stopped')`;
const EXTRACTED_ITEM: RowTypes = { dates: ["createdAt"] };

/** A new row's id (the tables' ids are opaque strings; Prisma's model API would make a cuid). */
const newId = () => randomUUID();

/** `"column" = value` for each column given a value (undefined: left as it is), for a SET clause. Column names are the caller's own keys, never input. */
function assignments(data: Record<string, unknown>): Prisma.Sql[] {
  return Object.entries(data)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`);
}

/** The research's row, or null (plain SQL: read by every queue-mode node job, and by the runner's checks). */
export async function loadResearch(id: string): Promise<Research | null> {
  const [row] = await queryDirect<Research>(Prisma.sql`SELECT * FROM "Research" WHERE "id" = ${id}`, RESEARCH);
  return row ?? null;
}

/** The tree run's id and cancel, as a node job reads them with its research. */
export interface TreeRunState {
  id: string;
  cancelRequestedAt: Date | null;
}

const RESEARCH_PREFIX = "research__";
/** Every column of Research, as `research__<column>` (beside a query's columns in one row). */
const PREFIXED_RESEARCH_COLUMNS = Prisma.raw(Object.values(Prisma.ResearchScalarFieldEnum).map((c) => `r."${c}" AS "${RESEARCH_PREFIX}${c}"`).join(", "));
const NODE_ROW: RowTypes = {
  dates: [...SERP_QUERY.dates!, ...RESEARCH.dates!.map((c) => RESEARCH_PREFIX + c), "run__cancelRequestedAt"],
  booleans: [...SERP_QUERY.booleans!, ...RESEARCH.booleans!.map((c) => RESEARCH_PREFIX + c)],
};

/**
 * A queue-mode node job's first read, in one statement (two on every node's path before): the query
 * and its ancestors, root first (all of the tree its children's planning reads), with its research's
 * row and the tree run's id and cancel. Null when there is no such query or research.
 */
export async function loadNode(researchId: string, queryId: string): Promise<{ research: Research; run: TreeRunState | null; chain: SerpQuery[] } | null> {
  const rows = await queryDirect<Record<string, unknown>>(
    Prisma.sql`
      WITH RECURSIVE "chain" AS (
        SELECT * FROM "SerpQuery" WHERE "id" = ${queryId}
        UNION ALL
        SELECT q.* FROM "SerpQuery" q JOIN "chain" c ON q."id" = c."parentId"
      )
      SELECT c.*, ${PREFIXED_RESEARCH_COLUMNS}, run."id" AS "run__id", run."cancelRequestedAt" AS "run__cancelRequestedAt"
      FROM "chain" c JOIN "Research" r ON r."id" = ${researchId}
      LEFT JOIN "Run" run ON run."kind" = 'tree' AND run."subjectId" = r."id"
      ORDER BY c."depth"`,
    NODE_ROW,
  );
  if (rows.length === 0) return null;
  const research: Record<string, unknown> = {};
  const chain = rows.map((row) => {
    const query: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      if (column.startsWith(RESEARCH_PREFIX)) research[column.slice(RESEARCH_PREFIX.length)] = value;
      else if (!column.startsWith("run__")) query[column] = value;
    }
    return query as unknown as SerpQuery;
  });
  const { run__id, run__cancelRequestedAt } = rows[0] as { run__id: string | null; run__cancelRequestedAt: Date | null };
  return { research: research as unknown as Research, run: run__id === null ? null : { id: run__id, cancelRequestedAt: run__cancelRequestedAt }, chain };
}

/** Every query of the research, in the tree's order (plain SQL). */
export async function queriesOf(researchId: string): Promise<SerpQuery[]> {
  return queryDirect<SerpQuery>(Prisma.sql`SELECT * FROM "SerpQuery" WHERE "researchId" = ${researchId} ORDER BY ${SERP_QUERY_ORDER}`, SERP_QUERY);
}


/**
 * The ids of the research's queries that still have work (queue mode's coordinator asks every half
 * second): unfinished, or completed above the tree's last level with children not planned yet.
 * Plain SQL reading only the columns it needs (a query's row carries its learnings).
 */
export async function queriesWithWork(researchId: string, depth: number, unfinished: Iterable<string>): Promise<string[]> {
  const rows = await queryDirect<{ id: string }>(Prisma.sql`
    SELECT "id" FROM "SerpQuery"
    WHERE "researchId" = ${researchId}
      AND ("status" IN (${Prisma.join([...unfinished])})
        OR ("status" = 'completed' AND "depth" < ${depth} AND "childrenGenerated" = ${false}))
    ORDER BY ${SERP_QUERY_ORDER}`);
  return rows.map((r) => r.id);
}

/** Whether a query of the research is in one of the `atWork` statuses (queued or being worked on). */
export async function hasQueriesAtWork(researchId: string, atWork: Iterable<string>): Promise<boolean> {
  const rows = await queryDirect<{ one: number }>(Prisma.sql`
    SELECT 1 AS "one" FROM "SerpQuery" WHERE "researchId" = ${researchId} AND "status" IN (${Prisma.join([...atWork])}) LIMIT 1`);
  return rows.length > 0;
}

/** The ids of all the research's queries. */
export async function queryIdsOf(researchId: string): Promise<string[]> {
  return (await queryDirect<{ id: string }>(Prisma.sql`SELECT "id" FROM "SerpQuery" WHERE "researchId" = ${researchId}`)).map((r) => r.id);
}

/**
 * Whether a tree's work should go on (a queue-mode node job asks every half second): the research
 * is running and its run was not asked to cancel. One plain statement.
 */
export async function treeGoesOn(researchId: string): Promise<boolean> {
  const rows = await queryDirect(Prisma.sql`
    SELECT 1 AS "going" FROM "Research" r JOIN "Run" run ON run."kind" = 'tree' AND run."subjectId" = r."id"
    WHERE r."id" = ${researchId} AND r."status" = 'running' AND run."cancelRequestedAt" IS NULL`);
  return rows.length > 0;
}

/** Creates the root queries once; returns [] if another attempt already did. */
export async function createRootQueries(researchId: string, drafts: QueryDraft[], levelBreadth: number): Promise<SerpQuery[]> {
  return transactionDirect(async (tx) => {
    const claimed = await tx.execute(Prisma.sql`UPDATE "Research" SET "rootQueriesGenerated" = ${true} WHERE "id" = ${researchId} AND "rootQueriesGenerated" = ${false}`);
    if (claimed === 0) return [];
    const rows = newQueryRows(drafts.map((d, position) => ({ researchId, parentId: null, depth: 1, position, text: d.query, objective: d.objective, levelBreadth })));
    await insertQueries(tx, rows);
    return rows;
  });
}

/** Creates a query's children once; returns [] if they exist already. */
export async function createChildQueries(parent: SerpQuery, drafts: QueryDraft[], levelBreadth: number, spent?: SettledCalls): Promise<SerpQuery[]> {
  const { researchId, id: parentId } = parent;
  const rows = newQueryRows(drafts.map((d, position) => ({ researchId, parentId, depth: parent.depth + 1, position, text: d.query, objective: d.objective, levelBreadth })));
  // The planning's tokens go on the parent with its claim (a row is updated once per statement).
  const tokens = spent ? Prisma.sql`, "promptTokens" = "promptTokens" + ${spent.promptTokens}, "completionTokens" = "completionTokens" + ${spent.completionTokens}` : Prisma.empty;
  const claim = Prisma.sql`UPDATE "SerpQuery" SET "childrenGenerated" = ${true}${tokens} WHERE "id" = ${parent.id} AND "childrenGenerated" = ${false}`;
  if (rows.length > 0 && databaseProvider(getEnv().DATABASE_URL) === "postgresql") {
    // One statement (instead of BEGIN, the claim, the insert, COMMIT, and the planning's usage: six
    // round trips on every planned level's path): the children go in only with the parent's claim.
    const settled = spent ? Prisma.sql`, "settled" AS (${settleOnResearch(researchId, spent)})` : Prisma.empty;
    const inserted = await executeDirect(Prisma.sql`
      WITH "claimed" AS (${claim} RETURNING "id")${settled}
      ${INSERT_QUERIES} SELECT v.* FROM (VALUES ${Prisma.join(rows.map((q) => queryValues(q, { typed: true })))}) AS v (${QUERY_COLUMNS})
      WHERE EXISTS (SELECT 1 FROM "claimed")`);
    if (inserted > 0) return rows;
    // The research's share went in with the statement; the query's did not (its claim failed).
    if (spent) await addQueryTokens(parentId, spent);
    return [];
  }
  const created = await transactionDirect(async (tx) => {
    if ((await tx.execute(claim)) === 0) return null;
    await insertQueries(tx, rows);
    if (spent) await tx.execute(settleOnResearch(researchId, spent));
    return rows;
  });
  if (created) return created;
  // Another execution planned them first: this planning's calls were spent all the same.
  if (spent) await settleCalls(researchId, spent, parentId);
  return [];
}

/** A write of settled calls on the research's counters (see SettledCalls). */
const settleOnResearch = (researchId: string, t: SettledCalls) => Prisma.sql`
  UPDATE "Research" SET "promptTokens" = "promptTokens" + ${t.promptTokens}, "completionTokens" = "completionTokens" + ${t.completionTokens},
    "llmCalls" = "llmCalls" + ${t.calls}, "llmCallsUnsettled" = "llmCallsUnsettled" - ${t.settles}
  WHERE "id" = ${researchId}`;

/** Adds tokens spent for a query to its own share. */
async function addQueryTokens(queryId: string, t: { promptTokens: number; completionTokens: number }) {
  await executeDirect(Prisma.sql`
    UPDATE "SerpQuery" SET "promptTokens" = "promptTokens" + ${t.promptTokens}, "completionTokens" = "completionTokens" + ${t.completionTokens}
    WHERE "id" = ${queryId}`);
}

type QueryDraftRow = Pick<SerpQuery, "researchId" | "parentId" | "depth" | "position" | "text" | "objective" | "levelBreadth">;

/** New queries' rows: pending, nothing spent. */
function newQueryRows(drafts: QueryDraftRow[]): SerpQuery[] {
  const createdAt = new Date();
  return drafts.map((d) => ({
    ...d, id: newId(), status: "pending", error: null, childrenGenerated: false, promptTokens: 0, completionTokens: 0, createdAt, startedAt: null, completedAt: null,
  }));
}

const QUERY_COLUMNS = Prisma.raw(`"id", "researchId", "parentId", "depth", "position", "text", "objective", "levelBreadth", "status", "childrenGenerated", "promptTokens", "completionTokens", "createdAt"`);
const INSERT_QUERIES = Prisma.sql`INSERT INTO "SerpQuery" (${QUERY_COLUMNS})`;

/**
 * A value, with a PostgreSQL cast when `typed`: a VALUES list inside a SELECT does not take its
 * column types from the insert (text and integer columns need none there, other types do).
 */
const castIf = (typed: boolean, value: unknown, type: string) => (typed ? Prisma.sql`${value}::${Prisma.raw(type)}` : Prisma.sql`${value}`);

/** A new query's values; `typed`: with PostgreSQL casts (castIf). */
function queryValues(q: SerpQuery, { typed = false } = {}) {
  const cast = (value: unknown, type: string) => castIf(typed, value, type);
  return Prisma.sql`(${q.id}, ${q.researchId}, ${q.parentId}, ${cast(q.depth, "integer")}, ${cast(q.position, "integer")}, ${q.text}, ${q.objective}, ${cast(q.levelBreadth, "integer")}, ${q.status}, ${cast(false, "boolean")}, ${cast(0, "integer")}, ${cast(0, "integer")}, ${cast(q.createdAt, "timestamp(3)")})`;
}

/** Inserts new queries in one statement. */
async function insertQueries(tx: DirectTx, rows: SerpQuery[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(Prisma.sql`${INSERT_QUERIES} VALUES ${Prisma.join(rows.map((q) => queryValues(q)))}`);
}

/** Moves a query to `status` (with its times, error and the tokens spent for it) and returns its row. */
export async function setQueryStatus(
  id: string,
  status: QueryStatus,
  { tokens, ...extra }: { error?: string | null; startedAt?: Date; completedAt?: Date; tokens?: { promptTokens: number; completionTokens: number } } = {},
): Promise<SerpQuery> {
  const sets = assignments({ status, ...extra });
  if (tokens) sets.push(Prisma.sql`"promptTokens" = "promptTokens" + ${tokens.promptTokens}`, Prisma.sql`"completionTokens" = "completionTokens" + ${tokens.completionTokens}`);
  const [row] = await queryDirect<SerpQuery>(Prisma.sql`UPDATE "SerpQuery" SET ${Prisma.join(sets)} WHERE "id" = ${id} RETURNING *`, SERP_QUERY);
  if (!row) throw new Error(`No query ${id}`);
  return row;
}

/**
 * Saves a query's search results in one transaction: each URL once per research (Page), linked to
 * this query (QueryPage), and the query moves to `scraping`. Returns the query and its rows. The
 * rows exist exactly when the query is past `searching`, so a re-run after a crash cannot duplicate them.
 */
export async function attachSearchResults(query: SerpQuery, results: SearchHit[]): Promise<{ query: SerpQuery; rows: QueryPageRow[] }> {
  const byUrl = new Map<string, SearchHit>();
  for (const r of results) if (!byUrl.has(r.url)) byUrl.set(r.url, r);
  const urls = [...byUrl.keys()];
  const { researchId } = query;
  if (urls.length > 0 && databaseProvider(getEnv().DATABASE_URL) === "postgresql") {
    const attached = await attachInOneStatement(query, urls, byUrl);
    if (attached) return attached;
    // Not moved: a second execution of the node (the transaction below takes the rows attached), or a
    // sibling's page committed after the statement's snapshot (the transaction's statements see it).
  }
  return transactionDirect(async (tx) => {
    // Moved past searching first: a second execution of the node (a duplicated job in queue mode)
    // finds the rows attached and takes them instead of inserting them again.
    const [moved] = await tx.query<SerpQuery>(Prisma.sql`
      UPDATE "SerpQuery" SET "status" = 'scraping' WHERE "id" = ${query.id} AND "status" IN ${ATTACHABLE} RETURNING *`, SERP_QUERY);
    if (!moved) {
      const [current] = await tx.query<SerpQuery>(Prisma.sql`SELECT * FROM "SerpQuery" WHERE "id" = ${query.id}`, SERP_QUERY);
      if (!current) throw new Error(`No query ${query.id}`);
      return { query: current, rows: await queryPageRows(tx, query.id) };
    }
    if (urls.length === 0) return { query: moved, rows: [] };
    const now = new Date();
    // Each URL once per research: a sibling query attaching at the same time may insert it first.
    // Sorted, so that siblings inserting overlapping URLs at once take the unique index's locks in the
    // same order (PostgreSQL would find them deadlocked otherwise).
    const pageValues = [...urls].sort().map((url) => Prisma.sql`(${newId()}, ${researchId}, ${url}, ${byUrl.get(url)!.title || null}, 'pending', ${now})`);
    await tx.execute(Prisma.sql`
      INSERT INTO "Page" ("id", "researchId", "url", "title", "status", "createdAt") VALUES ${Prisma.join(pageValues)}
      ON CONFLICT ("researchId", "url") DO NOTHING`);
    // The pages as a query's rows show them (all but the text): the rows are built from them and
    // what is inserted, not read back (a round trip less on every query's path).
    const pages = await tx.query<QueryPageRow["page"]>(Prisma.sql`
      SELECT ${PAGE_COLUMNS} FROM "Page" WHERE "researchId" = ${researchId} AND "url" IN (${Prisma.join(urls)})`, PAGE_ROW);
    const pageOf = new Map(pages.map((p) => [p.url, p]));
    const rows: QueryPageRow[] = urls.map((url, position) => {
      const page = pageOf.get(url)!;
      return { id: newId(), queryId: query.id, pageId: page.id, position, status: "pending", error: null, createdAt: now, analyzedAt: null, page, items: [] };
    });
    await tx.execute(Prisma.sql`
      INSERT INTO "QueryPage" ("id", "queryId", "pageId", "position", "status", "createdAt")
      VALUES ${Prisma.join(rows.map((r) => Prisma.sql`(${r.id}, ${r.queryId}, ${r.pageId}, ${r.position}, ${r.status}, ${r.createdAt})`))}`);
    return { query: moved, rows };
  });
}

const ATTACHED: RowTypes = { dates: [...(SERP_QUERY.dates ?? []), "page_createdAt", "page_fetchedAt"], booleans: SERP_QUERY.booleans };

/**
 * attachSearchResults on PostgreSQL in one statement (instead of BEGIN, the move, the pages' insert,
 * their read, the links' insert and COMMIT: six round trips on every query's path, between its search
 * and its pages' fetches). The pages are inserted once per research as before; the query moves and its
 * rows are linked only when the statement sees every page, which it cannot when a sibling's insert of
 * one committed after the statement began (its snapshot has neither that row nor, ON CONFLICT, its
 * own): then nothing moves and undefined is returned, as when the query was no longer searching. The
 * query's row is locked first: a second execution of the node waits, then finds it moved and inserts
 * no page of its own.
 */
async function attachInOneStatement(query: SerpQuery, urls: string[], byUrl: Map<string, SearchHit>): Promise<{ query: SerpQuery; rows: QueryPageRow[] } | undefined> {
  const { researchId } = query;
  const now = new Date();
  const at = Prisma.sql`${now}::timestamp(3)`;
  // Sorted, so that siblings inserting overlapping URLs at once take the unique index's locks in the same order.
  const pageValues = [...urls].sort().map((url) => Prisma.sql`(${newId()}, ${researchId}, ${url}, ${byUrl.get(url)!.title || null}::text)`);
  const links = urls.map((url, position) => ({ id: newId(), url, position }));
  const joined = await queryDirect<SerpQuery & PrefixedPage>(Prisma.sql`
    WITH "searching" AS (
      SELECT "id" FROM "SerpQuery" WHERE "id" = ${query.id} AND "status" IN ${ATTACHABLE} FOR UPDATE),
    "inserted" AS (
      INSERT INTO "Page" ("id", "researchId", "url", "title", "status", "createdAt")
      SELECT v."id", v."researchId", v."url", v."title", 'pending', ${at} FROM (VALUES ${Prisma.join(pageValues)}) AS v ("id", "researchId", "url", "title")
      WHERE EXISTS (SELECT 1 FROM "searching") ORDER BY v."url"
      ON CONFLICT ("researchId", "url") DO NOTHING
      RETURNING ${PAGE_COLUMNS}),
    "pages" AS (
      SELECT ${PAGE_COLUMNS} FROM "inserted"
      UNION ALL SELECT ${PAGE_COLUMNS} FROM "Page" WHERE "researchId" = ${researchId} AND "url" IN (${Prisma.join(urls)})),
    "moved" AS (
      UPDATE "SerpQuery" SET "status" = 'scraping'
      WHERE "id" IN (SELECT "id" FROM "searching") AND (SELECT count(*) FROM "pages") = ${urls.length}::integer
      RETURNING *),
    "linked" AS (
      INSERT INTO "QueryPage" ("id", "queryId", "pageId", "position", "status", "createdAt")
      SELECT l."id", ${query.id}, p."id", l."position", 'pending', ${at}
      FROM (VALUES ${Prisma.join(links.map((l) => Prisma.sql`(${l.id}, ${l.url}, ${l.position}::integer)`))}) AS l ("id", "url", "position")
      JOIN "pages" p ON p."url" = l."url" WHERE EXISTS (SELECT 1 FROM "moved")
      RETURNING "id")
    SELECT m.*, ${PAGE_COLUMNS_PREFIXED} FROM "moved" m JOIN "pages" p ON true`, ATTACHED);
  if (joined.length === 0) return undefined;
  const pageOf = new Map(joined.map((r) => [r.page_url, r]));
  const rows: QueryPageRow[] = links.map(({ id, url, position }) => {
    const page = pageOfPrefixed(pageOf.get(url)!);
    return { id, queryId: query.id, pageId: page.id, position, status: "pending", error: null, createdAt: now, analyzedAt: null, page, items: [] };
  });
  const moved = Object.fromEntries(Object.entries(joined[0]).filter(([k]) => !k.startsWith("page_"))) as unknown as SerpQuery;
  return { query: moved, rows };
}

export async function queryPagesOfQuery(queryId: string): Promise<QueryPageRow[]> {
  return queryPageRows({ query: queryDirect }, queryId);
}

/** A query's pages in order, each with its page (without the text) and its items. */
async function queryPageRows(tx: Pick<DirectTx, "query">, queryId: string): Promise<QueryPageRow[]> {
  type Joined = Omit<QueryPageRow, "page" | "items"> & PrefixedPage;
  const joined = await tx.query<Joined>(Prisma.sql`
    SELECT qp."id", qp."queryId", qp."pageId", qp."position", qp."status", qp."error", qp."createdAt", qp."analyzedAt",
      ${PAGE_COLUMNS_PREFIXED}
    FROM "QueryPage" qp JOIN "Page" p ON p."id" = qp."pageId" WHERE qp."queryId" = ${queryId} ORDER BY qp."position"`, QUERY_PAGE);
  const itemsByRow = new Map<string, ExtractedItem[]>();
  if (joined.length > 0) {
    const rows = await tx.query<ExtractedItem>(Prisma.sql`
      SELECT i.* FROM "ExtractedItem" i JOIN "QueryPage" qp ON qp."id" = i."queryPageId" WHERE qp."queryId" = ${queryId} ORDER BY i."position"`, EXTRACTED_ITEM);
    for (const item of rows) {
      if (!itemsByRow.has(item.queryPageId)) itemsByRow.set(item.queryPageId, []);
      itemsByRow.get(item.queryPageId)!.push(item);
    }
  }
  return joined.map((r) => ({
    id: r.id, queryId: r.queryId, pageId: r.pageId, position: r.position, status: r.status, error: r.error, createdAt: r.createdAt, analyzedAt: r.analyzedAt,
    page: pageOfPrefixed(r),
    items: itemsByRow.get(r.id) ?? [],
  }));
}

type PageWrite = Partial<Pick<Page, "status" | "title" | "content" | "contentType" | "error" | "fetchedAt" | "author" | "published">>;

/** Writes the given columns of a page (nothing is read back). */
export async function updatePage(id: string, data: PageWrite) {
  const sets = assignments(data);
  if (sets.length === 0) return;
  await executeDirect(Prisma.sql`UPDATE "Page" SET ${Prisma.join(sets)} WHERE "id" = ${id}`);
}

/** A page fetch's claim: whether this caller holds it, the page as it is, and whether a query has analysed it. */
export interface PageClaim {
  claimed: boolean;
  page: PageText;
  /** Whether a query has analysed the page (read it in full) yet: read with the page, not before each analysis. */
  analyzedElsewhere: boolean;
}

/**
 * Claims a page's fetch for this process (queue mode: several workers explore one tree), and reads
 * the page: claimed when it was not being fetched, or its claim is older than `staleMs` (its worker
 * died). The claim's time is kept in fetchedAt, which the fetch's end overwrites. Not claimed when
 * another claim holds it or the fetch has ended: the page as it is then (with its text once ended).
 *
 * The claims of one `group` (a node job's pages, asked for together) made before the microtasks
 * queued now have run go in one statement on PostgreSQL (two on SQLite): a node's ~7 pages were 7
 * round trips, each waking a database backend. A page asked for twice in one group is claimed for
 * the first caller only.
 */
export async function claimPageFetch(id: string, staleMs: number, group = ""): Promise<PageClaim> {
  const claim = await pageClaims.add(`${staleMs}:${group}`, id);
  if (claim instanceof Error) throw claim;
  return claim;
}

const pageClaims = new GroupCommit<string, PageClaim | Error>(
  (key, ids) => claimPages(ids, Number(key.slice(0, key.indexOf(":")))),
  (start) => process.nextTick(start),
);

async function claimPages(ids: string[], staleMs: number): Promise<(PageClaim | Error)[]> {
  const distinct = [...new Set(ids)];
  const now = new Date();
  const among = (column: Prisma.Sql) => (distinct.length === 1 ? Prisma.sql`${column} = ${distinct[0]}` : Prisma.sql`${column} IN (${Prisma.join(distinct)})`);
  const claim = Prisma.sql`
    UPDATE "Page" SET "status" = 'scraping', "error" = NULL, "fetchedAt" = ${now}
    WHERE ${among(Prisma.sql`"id"`)} AND ("status" NOT IN ('scraping', 'scraped', 'failed')
      OR ("status" = 'scraping' AND ("fetchedAt" IS NULL OR "fetchedAt" < ${new Date(now.getTime() - staleMs)})))
    RETURNING "id"`;
  const columns = Prisma.sql`p."id", p."url", p."status", p."title", p."content", p."error",
    EXISTS (SELECT 1 FROM "QueryPage" qp WHERE qp."pageId" = p."id" AND qp."status" = 'analyzed') AS "analyzedElsewhere"`;
  type Row = PageText & { analyzedElsewhere: boolean | number; claimed?: boolean };
  let rows: Row[];
  let claimed: Set<string>;
  if (databaseProvider(getEnv().DATABASE_URL) === "postgresql") {
    // The SELECT sees the rows as they were before the claim in the same statement.
    rows = await queryDirect<Row>(Prisma.sql`
      WITH "claim" AS (${claim})
      SELECT ${columns}, p."id" IN (SELECT "id" FROM "claim") AS "claimed" FROM "Page" p WHERE ${among(Prisma.sql`p."id"`)}`);
    claimed = new Set(rows.filter((r) => r.claimed).map((r) => r.id));
  } else {
    claimed = new Set((await queryDirect<{ id: string }>(claim)).map((r) => r.id));
    rows = await queryDirect<Row>(Prisma.sql`SELECT ${columns} FROM "Page" p WHERE ${among(Prisma.sql`p."id"`)}`);
  }
  const byId = new Map(rows.map(({ claimed: _, analyzedElsewhere, ...page }) => [page.id, { page, analyzedElsewhere: Boolean(analyzedElsewhere) }]));
  const given = new Set<string>();
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) return new Error(`No page ${id}`);
    const first = !given.has(id);
    given.add(id);
    if (!claimed.has(id)) return { claimed: false, ...row };
    // Claimed: for its first caller; to any other, the page is being fetched (by that one).
    return { claimed: first, analyzedElsewhere: row.analyzedElsewhere, page: { ...row.page, status: "scraping", error: null } };
  });
}

/** Renews a page fetch claim while the fetch goes on (its `fetchedAt`): a claim not renewed for staleMs is a dead worker's. */
export async function renewPageFetch(id: string): Promise<void> {
  await executeDirect(Prisma.sql`UPDATE "Page" SET "fetchedAt" = ${new Date()} WHERE "id" = ${id} AND "status" = 'scraping'`);
}

/** Whether another query of the research has analysed the page: it was read in full there. */
export async function pageAnalyzedElsewhere(pageId: string, queryPageId: string): Promise<boolean> {
  const rows = await queryDirect(Prisma.sql`SELECT 1 AS "one" FROM "QueryPage" WHERE "pageId" = ${pageId} AND "id" <> ${queryPageId} AND "status" = 'analyzed' LIMIT 1`);
  return rows.length > 0;
}

/** A page's fetch state with its text, what an analysis reads. */
type PageText = Pick<Page, "id" | "url" | "status" | "title" | "content" | "error">;

/** A page's fetch state with its text, for analysis (plain SQL: once per analysed page in queue mode). */
export async function getPage(id: string): Promise<PageText> {
  const rows = await queryDirect<PageText>(Prisma.sql`
    SELECT "id", "url", "status", "title", "content", "error" FROM "Page" WHERE "id" = ${id}`);
  if (rows.length === 0) throw new Error(`No page ${id}`);
  return rows[0];
}

// The two writes below run once per analysed page (hundreds per research): they are plain SQL,
// standard enough for SQLite and PostgreSQL alike, because a Prisma model operation costs ~5× the
// CPU of the same statement raw (the benchmark's figures are in bench/README.md).

interface AnalysisSave {
  queryPageId: string;
  researchId: string;
  url: string;
  items: string[];
  /** The analysis's LLM calls, settled with the save (see saveAnalysis). */
  spent?: SettledCalls;
}

/** LLM calls that returned (`settles` of them begun with beginUsage), their tokens not yet on the research. */
export interface SettledCalls {
  promptTokens: number;
  completionTokens: number;
  calls: number;
  settles: number;
}

/**
 * Saves a page analysis's items and marks its row analysed; false if the row was no longer pending
 * (nothing is then stored in queue mode). The saves of one turn of the event loop go in one group
 * (lib/db/group-commit.ts): each a statement or two on its own, a page analysis's hundreds at (5, 5).
 *
 * Alone, no transaction is needed: the items go first, then the mark; item ids are the query page's
 * and the position, so a re-run after a crash between the two inserts nothing twice, and a pending
 * row that already has items is taken as analysed (see processQuery). `exclusive` (queue mode, where
 * two executions of one node may analyse a page at once): the items go in only with the mark.
 *
 * `spent`: the analysis's LLM calls, settled on the research with the save, whether or not the row
 * is marked (their tokens were spent). On PostgreSQL in the save's own statement: one round trip less
 * per page analysis on a node's path. Until then they count as unsettled, as a call in flight at a
 * crash does.
 */
export function saveAnalysis(queryPageId: string, researchId: string, url: string, items: string[], { exclusive = false, spent }: { exclusive?: boolean; spent?: SettledCalls } = {}): Promise<boolean> {
  return analysisSaves.add(exclusive ? "exclusive" : "shared", { queryPageId, researchId, url, items, spent });
}

const analysisSaves = new GroupCommit<AnalysisSave, boolean>(async (mode, saves) => {
  const now = new Date();
  const exclusive = mode === "exclusive";
  // A row saved twice in one group (two executions of a queue job in one process): its first save is the one.
  const firsts = new Map<string, AnalysisSave>();
  for (const save of saves) if (!firsts.has(save.queryPageId)) firsts.set(save.queryPageId, save);
  const distinct = [...firsts.values()];
  const spent = spentByResearch(saves);
  const marked = new Set<string>();
  if (databaseProvider(getEnv().DATABASE_URL) === "postgresql") {
    // Each group one statement: the marks, the items that go in with them, and the calls settled.
    for (const [i, group] of [...inGroupsOfItems(distinct)].entries()) for (const id of await saveAnalysesPg(group, now, i === 0 ? spent : [])) marked.add(id);
  } else {
    await Promise.all(spent.map(([researchId, t]) => settleCalls(researchId, t)));
    if (distinct.length === 1) {
      const [save] = distinct;
      const done = exclusive ? await saveAnalysisOnce(save, now) : await saveAnalysisAlone(save, now);
      if (done) marked.add(save.queryPageId);
    } else {
      for (const group of inGroupsOfItems(distinct)) for (const id of await saveAnalyses(group, now, exclusive)) marked.add(id);
    }
  }
  return saves.map((save) => firsts.get(save.queryPageId) === save && marked.has(save.queryPageId));
});

async function saveAnalysisAlone(save: AnalysisSave, now: Date): Promise<boolean> {
  if (save.items.length > 0) await executeDirect(insertItems([save], now));
  return (await executeDirect(markAnalyzed([save.queryPageId], now))) === 1;
}

/**
 * The exclusive save of one row: the row is marked and its items inserted at once, by whichever
 * marks it first, so the items are one analysis's, never a mix of two.
 */
async function saveAnalysisOnce(save: AnalysisSave, now: Date): Promise<boolean> {
  // Nothing to insert (a page with nothing for the objective: a fifth of the analyses on the bench's
  // web): the mark alone, one statement, instead of a transaction of three.
  if (save.items.length === 0) return (await executeDirect(markAnalyzed([save.queryPageId], now))) === 1;
  return (await saveAnalyses([save], now, true)).length === 1;
}

/** SQLite: several rows' saves (each row once): the ids of the rows it marked. */
async function saveAnalyses(saves: AnalysisSave[], now: Date, exclusive: boolean): Promise<string[]> {
  const ids = saves.map((s) => s.queryPageId);
  const withItems = saves.filter((s) => s.items.length > 0);
  const mark = Prisma.sql`${markAnalyzed(ids, now)} RETURNING "id"`;
  if (!exclusive) {
    // Items first, then the marks, as for one save alone (no transaction needed).
    if (withItems.length > 0) await executeDirect(insertItems(withItems, now));
    return (await queryDirect<{ id: string }>(mark)).map((r) => r.id);
  }
  return transactionDirect(async (tx) => {
    const marked = new Set((await tx.query<{ id: string }>(mark)).map((r) => r.id));
    const stored = withItems.filter((s) => marked.has(s.queryPageId));
    if (stored.length > 0) await tx.execute(insertItems(stored, now));
    return [...marked];
  });
}

/**
 * PostgreSQL: several rows' saves (each row once) in one statement (a data-modifying WITH, which
 * SQLite does not have), instead of BEGIN, marks, inserts, COMMIT: the items go in only with their
 * row's mark, and the calls `spent` are settled on their researches whatever is marked. The ids of
 * the rows it marked.
 */
async function saveAnalysesPg(saves: AnalysisSave[], now: Date, spent: [string, SettledCalls][]): Promise<string[]> {
  const withItems = saves.filter((s) => s.items.length > 0);
  const parts = [Prisma.sql`"marked" AS (${markAnalyzed(saves.map((s) => s.queryPageId), now)} RETURNING "id")`];
  if (withItems.length > 0) {
    parts.push(Prisma.sql`"inserted" AS (
      ${INSERT_ITEMS} SELECT v.* FROM (VALUES ${Prisma.join(withItems.map((s) => itemValues(s, now, { typed: true })))})
        AS v ("id", "queryPageId", "researchId", "content", "url", "position", "createdAt")
      WHERE v."queryPageId" IN (SELECT "id" FROM "marked") ON CONFLICT DO NOTHING)`);
  }
  if (spent.length > 0) {
    const int = (n: number) => castIf(true, n, "integer");
    parts.push(Prisma.sql`"settled" AS (
      UPDATE "Research" r SET "promptTokens" = r."promptTokens" + u."p", "completionTokens" = r."completionTokens" + u."c",
        "llmCalls" = r."llmCalls" + u."n", "llmCallsUnsettled" = r."llmCallsUnsettled" - u."s"
      FROM (VALUES ${Prisma.join(spent.map(([id, t]) => Prisma.sql`(${id}, ${int(t.promptTokens)}, ${int(t.completionTokens)}, ${int(t.calls)}, ${int(t.settles)})`))})
        AS u ("id", "p", "c", "n", "s")
      WHERE r."id" = u."id")`);
  }
  const rows = await queryDirect<{ id: string }>(Prisma.sql`WITH ${Prisma.join(parts)} SELECT "id" FROM "marked"`);
  return rows.map((r) => r.id);
}

/** The calls spent by a group's saves, summed per research. */
function spentByResearch(saves: AnalysisSave[]): [string, SettledCalls][] {
  const sums = new Map<string, SettledCalls>();
  for (const { researchId, spent } of saves) {
    if (!spent) continue;
    const sum = sums.get(researchId) ?? { promptTokens: 0, completionTokens: 0, calls: 0, settles: 0 };
    sum.promptTokens += spent.promptTokens;
    sum.completionTokens += spent.completionTokens;
    sum.calls += spent.calls;
    sum.settles += spent.settles;
    sums.set(researchId, sum);
  }
  return [...sums];
}

/** Saves in groups of at most ~1,000 items (7 parameters each: within either database's limit per statement). */
function* inGroupsOfItems(saves: AnalysisSave[]): Generator<AnalysisSave[]> {
  let group: AnalysisSave[] = [];
  let items = 0;
  for (const save of saves) {
    if (group.length > 0 && items + save.items.length > 1_000) {
      yield group;
      group = [];
      items = 0;
    }
    group.push(save);
    items += save.items.length;
  }
  if (group.length > 0) yield group;
}

/** Pending query pages marked analysed (those no longer pending are left as they are). */
const markAnalyzed = (queryPageIds: string[], now: Date) => Prisma.sql`
  UPDATE "QueryPage" SET "status" = 'analyzed', "analyzedAt" = ${now}, "error" = NULL
  WHERE ${queryPageIds.length === 1 ? Prisma.sql`"id" = ${queryPageIds[0]}` : Prisma.sql`"id" IN (${Prisma.join(queryPageIds)})`} AND "status" = 'pending'`;

/** Analyses' items, with ids from the query page and the position (each inserted once). */
function insertItems(saves: AnalysisSave[], now: Date) {
  return Prisma.sql`${INSERT_ITEMS} VALUES ${Prisma.join(saves.map((s) => itemValues(s, now)))} ON CONFLICT DO NOTHING`;
}

const INSERT_ITEMS = Prisma.sql`INSERT INTO "ExtractedItem" ("id", "queryPageId", "researchId", "content", "url", "position", "createdAt")`;

/**
 * The items' rows, ids from the query page and the position. `typed`: with PostgreSQL casts, for a
 * VALUES list whose column types are not the insert's (inside a SELECT).
 */
function itemValues({ queryPageId, researchId, url, items }: AnalysisSave, now: Date, { typed = false } = {}) {
  const at = castIf(typed, now, "timestamp(3)");
  return Prisma.join(items.map((content, p) => Prisma.sql`(${`${queryPageId}:${p}`}, ${queryPageId}, ${researchId}, ${content}, ${url}, ${castIf(typed, p, "integer")}, ${at})`));
}

/** Marks a query's page failed. False if it was not pending. */
export async function failQueryPage(queryPageId: string, error: string): Promise<boolean> {
  const count = await executeDirect(Prisma.sql`
    UPDATE "QueryPage" SET "status" = 'failed', "error" = ${error} WHERE "id" = ${queryPageId} AND "status" = 'pending'`);
  return count === 1;
}

/**
 * A research's usage counters: the most frequent write of a run (a begin and a settle per LLM call,
 * up to LLM_CONCURRENCY at once on one row), combined while one is in flight (lib/db/combined-counters.ts).
 */
const researchUsage = usageCounters("Research");

/** Counts a call as unsettled before it is sent (see UsageSink): a crash leaves it counted. */
export async function beginUsage(researchId: string) {
  await researchUsage.add(researchId, { llmCallsUnsettled: 1 });
}

/** Settles calls on the research (their tokens, and `settles` of them no longer unsettled), and their tokens on the query they were spent for, if given. */
export async function settleCalls(researchId: string, t: SettledCalls, queryId?: string) {
  await researchUsage.add(researchId, { promptTokens: t.promptTokens, completionTokens: t.completionTokens, llmCalls: t.calls, llmCallsUnsettled: -t.settles });
  if (queryId) await addQueryTokens(queryId, t);
}

/**
 * Adds one LLM call's token usage to the research (and the query it was spent for) as soon as the
 * call returns, so that the totals are exact after any crash; `settles`: the call was begun
 * (beginUsage), and no longer is unsettled.
 */
export async function addUsage(researchId: string, t: TokenUsage, queryId?: string, { settles = false } = {}) {
  // Two autocommit statements, no transaction: BEGIN and COMMIT would double the statements of the
  // most frequent write of a run. The research's total goes first, so it is exact after any crash;
  // only a query's own share could miss the one call in flight.
  await researchUsage.add(researchId, { promptTokens: t.promptTokens, completionTokens: t.completionTokens, llmCalls: t.calls, llmCallsUnsettled: settles ? -1 : 0 });
  if (queryId) await addQueryTokens(queryId, t);
}

/** Marks a running research paused (waiting for its LLM provider), or no longer paused. */
export async function setPaused(id: string, reason: string | null, since = new Date()) {
  await db.research.updateMany({
    where: { id, status: "running" },
    data: reason ? { pausedAt: since, pauseReason: reason } : { pausedAt: null, pauseReason: null },
  });
  return db.research.findUniqueOrThrow({ where: { id } });
}

/** Appends a warning (kept once) to the research. Callers serialise their calls per research. */
export async function addWarning(id: string, warning: string) {
  const row = await db.research.findUniqueOrThrow({ where: { id }, select: { warnings: true } });
  const warnings = parseStringArray(row.warnings);
  if (warnings.includes(warning)) return;
  await db.research.update({ where: { id }, data: { warnings: JSON.stringify([...warnings, warning]) } });
}

const UNFINISHED_QUERY = ["pending", "searching", "scraping", "analyzing"];

/**
 * A research that failed or was cancelled: every query, page and analysis still in progress becomes
 * `stopped`, so the tree and the counts show what really happened. Returns what changed.
 */
export async function settleStopped(researchId: string): Promise<{ queries: SerpQuery[]; rows: QueryPageRow[] }> {
  return db.$transaction(async (tx) => {
    const queries = await tx.serpQuery.findMany({ where: { researchId, status: { in: UNFINISHED_QUERY } }, select: { id: true } });
    const rowIds = await tx.queryPage.findMany({ where: { query: { researchId }, status: "pending" }, select: { id: true } });
    await tx.serpQuery.updateMany({ where: { id: { in: queries.map((q) => q.id) } }, data: { status: "stopped" } });
    await tx.page.updateMany({ where: { researchId, status: { in: ["pending", "scraping"] } }, data: { status: "stopped" } });
    await tx.queryPage.updateMany({ where: { id: { in: rowIds.map((r) => r.id) } }, data: { status: "stopped" } });
    return {
      queries: await tx.serpQuery.findMany({ where: { id: { in: queries.map((q) => q.id) } } }),
      rows: await tx.queryPage.findMany({ where: { id: { in: rowIds.map((r) => r.id) } }, include: QUERY_PAGE_ROW }),
    };
  });
}

/** The error recorded on a page analysis that failed because the LLM call failed (a resume retries it). */
export const LLM_FAILURE_PREFIX = "The language model is unavailable";

/**
 * Reopens a failed or cancelled research to run again from where it stopped: stopped queries,
 * pages and analyses go back to where they were, and analyses lost to LLM failures are retried.
 * Completed work is untouched. False if the research was not failed or cancelled.
 */
export async function reopenForResume(id: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.research.updateMany({
      where: { id, status: { in: ["failed", "cancelled"] } },
      data: { status: "running", error: null, completedAt: null, pausedAt: null, pauseReason: null },
    });
    if (count === 0) return false;
    // A stopped query with search results goes on from its pages; one without searches again.
    await tx.serpQuery.updateMany({ where: { researchId: id, status: "stopped", queryPages: { some: {} } }, data: { status: "scraping" } });
    await tx.serpQuery.updateMany({ where: { researchId: id, status: "stopped" }, data: { status: "pending" } });
    await tx.page.updateMany({ where: { researchId: id, status: "stopped" }, data: { status: "pending" } });
    const retry = await tx.queryPage.findMany({
      where: { query: { researchId: id }, OR: [{ status: "stopped" }, { status: "failed", error: { startsWith: LLM_FAILURE_PREFIX } }] },
      select: { id: true, queryId: true },
    });
    await tx.queryPage.updateMany({ where: { id: { in: retry.map((r) => r.id) } }, data: { status: "pending", error: null } });
    // Completed queries with analyses to redo go back to their pages (their children, if any, stay).
    await tx.serpQuery.updateMany({
      where: { id: { in: [...new Set(retry.map((r) => r.queryId))] }, status: "completed" },
      data: { status: "scraping", completedAt: null },
    });
    return true;
  });
}

/** Reopens a failed or cancelled research to write its report from what it found. */
export async function reopenForReport(id: string): Promise<boolean> {
  const { count } = await db.research.updateMany({
    where: { id, status: { in: ["failed", "cancelled"] } },
    data: { status: "running", error: null, completedAt: null, pausedAt: null, pauseReason: null },
  });
  return count === 1;
}

/** Each query of a chain (root first) with its learnings, read in one query. */
export async function chainLearnings(chain: SerpQuery[]): Promise<QueryLearnings[]> {
  if (chain.length === 0) return [];
  // Plain SQL: once per query with children to plan.
  const items = await queryDirect<{ content: string; url: string; queryId: string }>(Prisma.sql`
    SELECT i."content", i."url", qp."queryId" FROM "ExtractedItem" i JOIN "QueryPage" qp ON qp."id" = i."queryPageId"
    WHERE qp."queryId" IN (${Prisma.join(chain.map((q) => q.id))}) ORDER BY qp."position", i."position"`);
  return chain.map((q) => ({
    query: q.text,
    objective: q.objective,
    learnings: items.filter((i) => i.queryId === q.id).map(({ content, url }) => ({ content, url })),
  }));
}

/** Every extracted item of a research, with its id and the query it was extracted for, in order. */
export async function learningsOf(researchId: string) {
  const items = await db.extractedItem.findMany({
    where: { researchId },
    select: { id: true, content: true, url: true, queryPage: { select: { queryId: true } } },
    orderBy: [{ createdAt: "asc" }, { position: "asc" }],
  });
  return items.map(({ id, content, url, queryPage }) => ({ id, content, url, queryId: queryPage.queryId }));
}

/** The title of every page of a research, by URL (for the report's numbered source list). */
export async function pageTitles(researchId: string): Promise<Map<string, string | null>> {
  const pages = await db.page.findMany({ where: { researchId }, select: { url: true, title: true } });
  return new Map(pages.map((p) => [p.url, p.title]));
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

/**
 * Ends a running research: a compare-and-set from `running`, so that a cancel recorded meanwhile (by
 * any process) is never overwritten. Null when it was not running any more (or is gone).
 */
export async function finishResearch(id: string, data: { status: "completed" | "failed"; report?: string | null; error?: string | null }) {
  const { count } = await db.research.updateMany({ where: { id, status: "running" }, data: { ...data, completedAt: new Date(), pausedAt: null, pauseReason: null } });
  return count === 1 ? db.research.findUnique({ where: { id } }) : null;
}

export async function markCancelled(id: string) {
  const { count } = await db.research.updateMany({
    where: { id, status: "running" },
    data: { status: "cancelled", completedAt: new Date(), pausedAt: null, pauseReason: null },
  });
  return count === 1;
}

/** The stored text and title of every page of a research that has text, by URL (what citations are checked against). */
export async function pageTexts(researchId: string): Promise<Map<string, { title: string | null; text: string }>> {
  const pages = await db.page.findMany({ where: { researchId, content: { not: null } }, select: { url: true, title: true, content: true } });
  return new Map(pages.map((p) => [p.url, { title: p.title, text: p.content ?? "" }]));
}

/** What a paper's references say of each page, by URL: when it was fetched, and its author and date where it states them. */
export async function pageReferenceFacts(researchId: string): Promise<Map<string, { fetchedAt: Date | null; author: string | null; published: string | null }>> {
  const pages = await db.page.findMany({ where: { researchId }, select: { url: true, fetchedAt: true, author: true, published: true } });
  return new Map(pages.map((p) => [p.url, { fetchedAt: p.fetchedAt, author: p.author, published: p.published }]));
}
