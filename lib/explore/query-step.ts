// One query node: search → save ≤7 URLs → scrape each (once per research) → read each scraped page
// (once per research, for every query waiting for it: ./page-reads.ts) → for the pages another query's
// read went out for, one call choosing from what they extracted → completed. A failed page never stops its query.
import { selectItems } from "../agents/analyze-website";
import { isLostCall } from "../ai/errors";
import { BoundedMap } from "../bounded-map";
import { allOrFirstError, Semaphore } from "../concurrency";
import { errorMessage } from "../errors";
import type { SerpQuery } from "../db/types";
import type { SerpQueryDraft } from "../agents/generate-serp-queries";
import { fetchSlot } from "../limits";
import { SearchError } from "../search";
import { searchSources } from "../search/knowledge";
import { KnowledgeSourceMissing, readKnowledgeSource } from "../knowledge/read-source";
import { parseKnowledgeSourceUrl } from "../knowledge/source-url";
import { WEB_ONLY } from "../knowledge/sources";
import { scrapeUrl, ScrapeError } from "../scrape";
import { AppError } from "../errors";
import type { RunContext } from "./context";
import { announcePageEnd, armPageEnd } from "./page-ends";
import type { FetchedPage } from "./context";
import { toQueryView, toWebsiteView, type QueryPageRow, type WebsiteRow } from "./public-shape";
import * as store from "../db/tree";
import type { QueryStatus } from "../types";

async function setStatus(ctx: RunContext, query: SerpQuery, status: QueryStatus, extra: Parameters<typeof store.setQueryStatus>[2] = {}) {
  const updated = await store.setQueryStatus(query.id, status, extra);
  ctx.emit({ type: "query.status", data: toQueryView(updated) });
  return updated;
}

/** A row's stored items, in their order. */
function storedItems(row: QueryPageRow): { content: string; url: string }[] {
  return [...row.items].sort((a, b) => a.position - b.position).map((i) => ({ content: i.content, url: i.url }));
}

function emitWebsite(ctx: RunContext, row: WebsiteRow, type: "page.status" | "item.extracted" = "page.status") {
  ctx.emit({ type, data: toWebsiteView(row) });
}

/** A write under way while the work goes on: awaited later, and never an unhandled rejection meanwhile. */
function underWay<T>(write: Promise<T>): Promise<T> {
  write.catch(() => {});
  return write;
}

/**
 * A query's work from its last durable status. When it completed: its `completed` status, being
 * written (its children's planning may read the chain meanwhile: the caller awaits it before their
 * insert). Null when it failed.
 */
export async function processQuery(
  ctx: RunContext,
  query: SerpQuery,
  /** A query with children to plan: how many, and what its pages taught it. */
  expansion?: {
    /** How many follow-up searches each read of a page asks the model for (the children's count). */
    followUps: number;
    /**
     * Told once every page of the query is settled, with what the query learned from them: its own reads'
     * items, and every item of the pages another query's read went out for (what its selection chooses
     * from); and, per page it read, the follow-up searches the read proposed (its children are chosen from
     * them, with no call after the reads). Its children's planning starts there, beside that selection.
     */
    onLearned: (learned: { content: string; url: string }[], proposed: SerpQueryDraft[][]) => void;
  },
): Promise<{ completed: Promise<SerpQuery> } | null> {
  let rows: QueryPageRow[];
  if (query.status === "pending" || query.status === "searching") {
    // The status is written while the search goes out (a round trip less on every query's path): the
    // results are attached after it, and a retry searches again from either status.
    const searching = underWay(setStatus(ctx, query, "searching", { startedAt: query.startedAt ?? new Date() }));
    let results;
    try {
      results = await searchSources({ sources: ctx.scope.sources ?? WEB_ONLY, userId: ctx.scope.userId ?? null, query: query.text, signal: ctx.signal, categories: ctx.scope.categories, onUsage: ctx.usage(query.id) });
    } catch (error) {
      await searching;
      if (!(error instanceof SearchError) && !(error instanceof AppError)) throw error;
      // The branch ends here; the rest of the tree goes on.
      await setStatus(ctx, query, "failed", { error: error.message, completedAt: new Date() });
      return null;
    }
    query = await searching;
    ({ query, rows } = await store.attachSearchResults(query, results));
    ctx.emit({ type: "query.status", data: toQueryView(query) });
    for (const row of rows) emitWebsite(ctx, row);
  } else {
    rows = await store.queryPagesOfQuery(query.id);
  }

  const pending = rows.filter((row) => row.status === "pending");
  const analyses = new Semaphore(ctx.scope.analyzeConcurrency ?? ctx.env.ANALYZE_CONCURRENCY_PER_QUERY);
  let analyzing = query.status === "analyzing";
  /** The `analyzing` status, written while the query's first analysis goes on. */
  let analyzingWritten: Promise<unknown> | undefined;
  const startAnalyzing = () => {
    if (analyzing) return;
    analyzing = true;
    // Not awaited here: a round trip less between the page's fetch and its analysis's call.
    analyzingWritten = underWay(setStatus(ctx, query, "analyzing"));
  };
  /**
   * Pages another query's read went out for: this query chooses from what those reads extracted, in one
   * call for them all, made as soon as every other page of the query is settled (read by a read it took
   * part in, failed, or known to be another's) — not after this query's own reads: the selection goes on
   * beside them. A page known to be another's only after that call went out (queue mode: a read that
   * another run's stop ended) gets a call of its own.
   */
  type Reused = { page: FetchedPage; items: string[]; record: (items: string[], spent?: store.SettledCalls) => Promise<void>; fail: (error: string) => Promise<void> };
  let batch: Reused[] = [];
  let unsettled = pending.length;
  /** What the query learned from its pages, in their order: told to onLearned once every page is settled. */
  const learnedByRow = new Map<string, { content: string; url: string }[]>();
  /** The follow-up searches each page's read proposed for this query (the pages it took part in reading). */
  const proposedByRow = new Map<string, SerpQueryDraft[]>();
  const selections: Promise<void>[] = [];
  const choose = async (pages: Reused[]): Promise<void> => {
    const usage = ctx.analysisUsage(query.id);
    let chosen: number[][];
    try {
      chosen = await selectItems({
        objective: query.objective,
        query: query.text,
        pages: pages.map((r) => ({ url: r.page.url, title: r.page.title, items: r.items })),
        onUsage: usage.sink,
        signal: ctx.signal,
        schedule: ctx.schedule({ kind: "analysis", depth: query.depth, analysesLeft: 1 }),
      });
    } catch (error) {
      await usage.flush().catch((settleError: unknown) => console.error(`[quarry] research ${ctx.id}: could not settle an item selection's calls:`, settleError));
      if (!isLostCall(error)) throw error;
      await Promise.all(pages.map((r) => r.fail(error.message)));
      return;
    }
    // The selection's calls are settled with the first save (a save that fails leaves them unsettled: counted, as at a crash).
    const spent = usage.take();
    await Promise.all(pages.map((r, i) => r.record(chosen[i].map((index) => r.items[index]), i === 0 ? spent : undefined)));
  };
  const flush = () => {
    if (unsettled > 0 || batch.length === 0) return;
    const pages = batch;
    batch = [];
    selections.push(underWay(choose(pages)));
  };
  // Every page's analysis ends before the query does, even when one fails: a sibling still saving
  // its items after the run had settled its unfinished rows as stopped would leave them unmarked.
  const pagesSettled = allOrFirstError(
    pending.map(async (row) => {
      let settledHere = false;
      /** This page no longer holds back the query's selection. */
      const settle = () => {
        if (settledHere) return;
        settledHere = true;
        unsettled -= 1;
        flush();
      };
      try {
        const page = await awaitPage(ctx, row);
        // The event shows what was just written: no need to read it back.
        const written = (status: "analyzed" | "failed", error: string | null, items: string[] = []): WebsiteRow => ({
          ...row,
          status,
          error,
          page: { ...row.page, status: page.status, title: page.title, error: page.error },
          items: items.map((content, position) => ({ content, url: page.url, position })),
        });
        const recordAnalysis = async (items: string[], spent?: store.SettledCalls) => {
          // The page's fetch is recorded before its analysis (it was written while the analysis went on).
          await page.recorded;
          if (await store.saveAnalysis(row.id, ctx.id, page.url, items, { exclusive: ctx.distributed, spent })) emitWebsite(ctx, written("analyzed", null, items), "item.extracted");
        };
        const fail = async (error: string) => {
          await page.recorded;
          if (await store.failQueryPage(row.id, error)) emitWebsite(ctx, written("failed", error));
        };
        if (row.items.length > 0) {
          settle();
          // Analysed before a crash, between saving the items and marking the row (see store.saveAnalysis).
          return await recordAnalysis(storedItems(row).map((i) => i.content));
        }
        if (page.status !== "scraped") {
          settle();
          return await fail(page.error ?? "The page could not be fetched");
        }
        await analyses.run(async () => {
          startAnalyzing();
          // Queue mode: another worker's query may have read it: read here, its passages matching the objectives.
          // Not a page whose end this worker saw: nobody read one it fetched before the fetch ended here.
          const excerpt = ctx.distributed && !ctx.pageReads.known(row.pageId) && (ctx.pageReads.readElsewhere.has(row.pageId) || (!endSeenHere.get(row.pageId) && (await store.pageAnalyzedElsewhere(row.pageId, row.id))));
          let outcome;
          try {
            outcome = await ctx.pageReads.serve(row.pageId, page, { queryId: query.id, objective: query.objective, query: query.text, depth: query.depth, followUps: expansion?.followUps ?? 0, ctx }, { excerpt, onReading: settle });
          } catch (error) {
            // A lost call costs this page's analysis (a resume retries it), never the query.
            if (!isLostCall(error)) throw error;
            return fail(error.message);
          }
          learnedByRow.set(row.id, outcome.items.map((content) => ({ content, url: page.url })));
          if (outcome.followUps.length > 0) proposedByRow.set(row.id, outcome.followUps);
          if (outcome.kind === "read" || outcome.items.length === 0) return recordAnalysis(outcome.items);
          batch.push({ page, items: outcome.items, record: recordAnalysis, fail });
          // Known to be another's only now, after the query's selection went out: one of its own.
          if (settledHere) flush();
        }, ctx.signal);
      } finally {
        settle();
      }
    }),
  );
  try {
    await pagesSettled;
  } catch (error) {
    // Nothing of this query is written after it ends: its selections included.
    await Promise.allSettled(selections);
    await analyzingWritten?.catch(() => {});
    throw error;
  }
  // Its pages in their order: those analysed before (a resume) with their stored items.
  expansion?.onLearned(
    rows.flatMap((row) => learnedByRow.get(row.id) ?? storedItems(row)),
    rows.map((row) => proposedByRow.get(row.id) ?? []),
  );
  // Nothing of this query is written after it ends: its selections included.
  await allOrFirstError(selections).finally(() => analyzingWritten?.catch(() => {}));
  await analyzingWritten;
  return { completed: underWay(setStatus(ctx, query, "completed", { completedAt: new Date(), tokens: ctx.takeQueryTokens(query.id) })) };
}

/**
 * Fetches a page once per research, however many queries found it; concurrent callers share the
 * fetch, and later ones get the page (with its text) from memory.
 */
function ensurePageFetched(ctx: RunContext, pageId: string): Promise<FetchedPage> {
  let fetched = ctx.pageFetches.get(pageId);
  if (!fetched) {
    fetched = fetchPage(ctx, pageId);
    ctx.pageFetches.set(pageId, fetched);
  }
  return fetched;
}

type PageState = { status: string; title: string | null; error: string | null };

/**
 * The rows of this process waiting for a page's fetch, each told its state as the fetch moves on
 * (it starts, it ends). Each row shows it in its own query's events: the page's pending rows were read
 * from the database twice per fetch before. In queue mode each worker tells its own rows.
 */
const pageWaiters = new Map<string, Set<(page: PageState) => void>>();

function announce(pageId: string, page: PageState): void {
  for (const show of pageWaiters.get(pageId) ?? []) show(page);
}

/**
 * Waits for a query's row's page (fetched once per research), the row's events showing the page's
 * state as it changes: fetching, then fetched or failed.
 */
async function awaitPage(ctx: RunContext, row: QueryPageRow): Promise<FetchedPage> {
  let shown: PageState = row.page;
  const show = (page: PageState) => {
    if (page.status === shown.status && page.title === shown.title && page.error === shown.error) return;
    shown = page;
    emitWebsite(ctx, { ...row, page: { ...row.page, status: page.status, title: page.title, error: page.error } });
  };
  let waiters = pageWaiters.get(row.pageId);
  if (!waiters) pageWaiters.set(row.pageId, (waiters = new Set()));
  waiters.add(show);
  try {
    const page = await ensurePageFetched(ctx, row.pageId);
    // Fetched before this row waited (by another query, or another worker): its end, shown here.
    show(page);
    return page;
  } finally {
    waiters.delete(show);
    if (waiters.size === 0) pageWaiters.delete(row.pageId);
  }
}

/**
 * Queue mode: a page fetch's claim is renewed this often while the fetch (and its extraction) goes on,
 * and a claim not renewed for five times as long is a dead worker's, taken over by the next node that
 * needs the page (it used to wait out two fetch timeouts: 35 s by default).
 */
const PAGE_CLAIM_RENEW_MS = 2_000;
const PAGE_CLAIM_STALE_MS = 5 * PAGE_CLAIM_RENEW_MS;

/**
 * Pages whose fetch has ended in this process's node jobs (queue mode): a scraped or failed page
 * never changes again, and each node job has its own RunContext, so without this every analysis
 * read the page's whole text from the database again. The latest ones are kept, within 16M
 * characters of text.
 */
const endedPages = new BoundedMap<string, FetchedPage>(16_000_000, (page) => page.content?.length ?? 0);

const hasEnded = (page: { status: string }): page is FetchedPage => page.status === "scraped" || page.status === "failed";

/**
 * Queue mode: pages whose fetch's end this process saw first-hand, the latest 100,000: those it fetched
 * (their first reader is a node job here), and those its claim found ended (with whether a query had
 * read them in full: see claimPageFetch).
 */
const endSeenHere = new BoundedMap<string, true>(100_000);

/**
 * Pages being fetched in this process's node jobs (queue mode), shared by its other node jobs that
 * need them: each job has its own RunContext, and without this a second job of the research here
 * found the page claimed by the first in the database and waited to see its end there.
 */
const fetchesHere = new Map<string, Promise<FetchedPage>>();

async function fetchPage(ctx: RunContext, pageId: string): Promise<FetchedPage> {
  if (!ctx.distributed) return fetchPageOnce(ctx, pageId);
  const known = endedPages.get(pageId);
  if (known) return known;
  const shared = fetchesHere.get(pageId);
  if (shared) {
    try {
      return await shared;
    } catch (error) {
      // The job that fetched it failed (its run stopped, the database did): this one tries itself.
      if (ctx.signal.aborted) throw error;
      return fetchPage(ctx, pageId);
    }
  }
  const fetch = fetchPageOnce(ctx, pageId).then((result) => {
    const kept = endedPages.getOrAdd(pageId, () => result);
    // Not kept if it could not be recorded: the next job here claims the page again.
    kept.recorded?.catch(() => endedPages.get(pageId) === kept && endedPages.delete(pageId));
    return kept;
  });
  fetchesHere.set(pageId, fetch);
  try {
    return await fetch;
  } finally {
    if (fetchesHere.get(pageId) === fetch) fetchesHere.delete(pageId);
  }
}

/** Each node job's page claims go together (store.claimPageFetch): a group per RunContext. */
const claimGroups = new WeakMap<RunContext, string>();
let claimGroupCount = 0;
const claimGroup = (ctx: RunContext): string => {
  let group = claimGroups.get(ctx);
  if (!group) claimGroups.set(ctx, (group = String(++claimGroupCount)));
  return group;
};

async function fetchPageOnce(ctx: RunContext, pageId: string): Promise<FetchedPage> {
  if (!ctx.distributed) {
    const page = await store.getPage(pageId);
    if (hasEnded(page)) return page;
    await store.updatePage(pageId, { status: "scraping", error: null });
    return fetchClaimedPage(ctx, page);
  }
  // Another worker's node may fetch it now: one claim in the database, the others wait for its
  // result. The claim is renewed while this fetch goes on; one left unrenewed is a dead worker's.
  let page;
  for (;;) {
    // Listening for the fetch's end before the claim: an end announced meanwhile is not missed.
    const fetchEnd = armPageEnd(pageId);
    try {
      const claim = await store.claimPageFetch(pageId, PAGE_CLAIM_STALE_MS, claimGroup(ctx));
      page = claim.page;
      if (claim.claimed) break;
      if (hasEnded(page)) {
        if (claim.analyzedElsewhere) ctx.pageReads.readElsewhere.add(pageId);
        endSeenHere.getOrAdd(pageId, () => true);
        return page;
      }
      // Being fetched elsewhere: this process's rows of the page show it, until its worker announces its end.
      announce(pageId, { status: "scraping", title: page.title, error: null });
      await fetchEnd.wait(ctx.env.PAGE_CLAIM_POLL_MS, ctx.signal);
    } finally {
      fetchEnd.dispose();
    }
    ctx.signal.throwIfAborted();
  }
  const renewal = setInterval(() => void store.renewPageFetch(pageId).catch((error: unknown) => console.error(`[quarry] could not renew the fetch claim of page ${pageId}:`, error)), PAGE_CLAIM_RENEW_MS);
  try {
    return await fetchClaimedPage(ctx, page);
  } finally {
    clearInterval(renewal);
  }
}

/** Fetches (or reads) the page this process claimed, and records the result. */
async function fetchClaimedPage(ctx: RunContext, page: Awaited<ReturnType<typeof store.getPage>>): Promise<FetchedPage> {
  const pageId = page.id;
  announce(pageId, { status: "scraping", title: page.title, error: null });
  let result: FetchedPage;
  // The result is recorded while this process's analyses of the page go on (a round trip less between
  // a page's fetch and its analyses' calls): they wait for it before their saves.
  let recorded: Promise<void>;
  try {
    // A knowledge-base passage is read from the database, never fetched.
    const scraped = parseKnowledgeSourceUrl(page.url)
      ? { ...(await readKnowledgeSource(page.url, ctx.scope.sources?.collections ?? [])), contentType: "text" as const }
      : await scrapeUrl(page.url, { signal: ctx.signal, downloadSlot: fetchSlot(ctx.signal) });
    result = { url: page.url, status: "scraped", title: scraped.title ?? page.title, content: scraped.text, error: null };
    recorded = store.updatePage(pageId, { status: "scraped", title: result.title, content: result.content, contentType: scraped.contentType, fetchedAt: new Date(), ...("author" in scraped ? { author: scraped.author ?? null, published: scraped.published ?? null } : {}) });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const message = error instanceof ScrapeError || error instanceof KnowledgeSourceMissing ? error.message : `Fetch failed: ${errorMessage(error)}`;
    result = { url: page.url, status: "failed", title: page.title, content: null, error: message };
    recorded = store.updatePage(pageId, { status: "failed", error: message, fetchedAt: new Date() });
  }
  // The node jobs of other workers waiting for it look again once it is recorded.
  if (ctx.distributed) recorded = recorded.then(() => announcePageEnd(pageId));
  result.recorded = underWay(recorded);
  announce(pageId, result);
  if (ctx.distributed) endSeenHere.getOrAdd(pageId, () => true);
  return result;
}
