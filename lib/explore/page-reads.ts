// A page goes to the model once per research, for every query waiting for it then: the queries whose
// rows reach a fetched page in the same turn of the event loop (they waited for its one fetch) share one
// read (lib/agents/analyze-website.ts), each getting the items tagged with its own handle. A query that
// reaches the page once its read has gone out does not send the page again: it gets what the read
// extracted (the page's items), to choose from in its own small selection call (query-step.ts) — unless
// that read went out a moment ago (less than half of a read's time): waiting for it and then choosing would
// take longer than a read, so the query reads the page too (a hedged read; its items join the first's).
import { analyzeWebsite, type PageRead } from "../agents/analyze-website";
import type { SerpQueryDraft } from "../agents/generate-serp-queries";
import { matchingPassages, rereadBudget } from "../agents/passages";
import { trimToTokens } from "../ai/prompts";
import type { RunContext, FetchedPage } from "./context";
import { currentOwnership, withOwnership } from "../ownership";
import { isOwnershipLoss } from "../errors";
import { withContextRetry } from "../ai/context-limit";

export interface ReadRequest {
  queryId: string;
  objective: string;
  query: string;
  depth: number;
  /** How many follow-up searches the read proposes for the query (its children's count; 0 for a leaf). */
  followUps?: number;
  /** The asking query's run (in queue mode, each node job has its own). */
  ctx: RunContext;
}

/**
 * A page's items for the asking query (`read`: it took part in the read, with the follow-up searches the read
 * proposed for it), or every item the page's read extracted, to choose from (`reuse`).
 */
export type ReadOutcome = { kind: "read" | "reuse"; items: string[]; followUps: SerpQueryDraft[] };

/** A read that another run's stop ended: the request tries again. */
const AGAIN = Symbol("again");

interface Waiting {
  request: ReadRequest;
  /** Queue mode: whether its node job is still this process's (lib/ownership.ts), asked when its read goes out. */
  held?: () => void;
  resolve: (outcome: ReadOutcome | typeof AGAIN) => void;
  reject: (error: unknown) => void;
}

interface PageState {
  /** Requests gathering for the next read (it goes out at the end of the turn). */
  batch?: { waiting: Waiting[]; excerpt: boolean };
  /** The reads under way, the oldest first (a hedged read goes out beside the first). */
  reading: { done: Promise<void>; startedAt: number }[];
  /** What the page's read extracted: every later query chooses from it. */
  items?: string[];
}

export class PageReads {
  private readonly pages = new Map<string, PageState>();
  /** How long a read takes here (a moving average; none measured yet: no read is hedged). */
  private readMs = 0;
  /** Queue mode: pages a query of another process read (found with their fetch's claim). */
  readonly readElsewhere = new Set<string>();

  /** Whether the page was read here, or its read is under way. */
  known(pageId: string): boolean {
    const state = this.pages.get(pageId);
    return Boolean(state?.items || state?.reading.length || state?.batch);
  }

  /**
   * The page's items for the request: from the read it joins (one call for every query waiting for the
   * page), or — the read having gone out before — what that read extracted. `excerpt`: another process
   * read the page in full, so a read here sends only its passages matching the objectives. `onReading`:
   * told when the request joins a read (its items will be that read's, with no selection to wait for).
   */
  async serve(pageId: string, page: FetchedPage, request: ReadRequest, { excerpt = false, onReading }: { excerpt?: boolean; onReading?: () => void } = {}): Promise<ReadOutcome> {
    /** Whether this request waited for a read already: after a failed read it joins another under way, never hedges. */
    let waited = false;
    for (;;) {
      const state = this.pages.get(pageId) ?? { reading: [] };
      this.pages.set(pageId, state);
      if (state.items) return { kind: "reuse", items: state.items, followUps: [] };
      const reading = state.reading[0];
      // A read under way that began a moment ago: waiting for it, then choosing from what it extracted
      // (a call of its own), would take longer than reading the page now; this query reads it too (a
      // hedged read, with the others arriving in this turn). Waiting costs what is left of the read and
      // a selection; reading, one read: it is worth it while less than half of a read has passed.
      if (reading && !state.batch && !waited && performance.now() - reading.startedAt < this.readMs / 2) {
        // Falls through to a read of its own.
      } else if (reading && !state.batch) {
        waited = true;
        await reading.done.catch(() => {});
        if (state.items) return { kind: "reuse", items: state.items, followUps: [] };
        // The read failed (its error went to the queries that took part in it): this query joins another
        // read of the page under way (a hedged one), or reads the page itself.
        if (request.ctx.signal.aborted) throw request.ctx.signal.reason;
        continue;
      }
      // The request takes part in a read: its items come from that read, not from a selection.
      onReading?.();
      const held = currentOwnership();
      const outcome = await new Promise<ReadOutcome | typeof AGAIN>((resolve, reject) => {
        if (state.batch) return void state.batch.waiting.push({ request, held, resolve, reject });
        state.batch = { waiting: [{ request, held, resolve, reject }], excerpt };
        // Every row waiting for the page's fetch resumes in this turn: they join before the read goes out.
        setImmediate(() => this.read(page, state));
      });
      if (outcome !== AGAIN) return outcome;
      // Its read failed or stopped: a read of the page still under way is joined (waited for), else it reads again.
      waited = true;
    }
  }

  private read(page: FetchedPage, state: PageState): void {
    const batch = state.batch!;
    state.batch = undefined;
    // Only queries whose work is still this process's take part: in queue mode, a node job whose lock
    // expired while the worker was stopped learns it here (its objective is not sent in another job's call).
    const waiting = batch.waiting.filter((w) => {
      try {
        w.held?.();
        w.request.ctx.signal.throwIfAborted();
        return true;
      } catch (error) {
        w.reject(error);
        return false;
      }
    });
    if (waiting.length === 0) return;
    const ctx = waiting[0].request.ctx;
    const startedAt = performance.now();
    // The call serves every query taking part: the ownership of each is asked again right before it is sent
    // (lib/ai/call.ts), since a worker stopped after the filter above resumes past some of their locks.
    const checks = waiting.flatMap((w) => (w.held ? [w.held] : []));
    const read = () => this.readFor(ctx, page, waiting, batch.excerpt);
    const done = (checks.length ? withOwnership(() => checks.forEach((held) => held()), read) : read()).then(
      ({ items, followUps }) => {
        // A hedged read's items join the first's: later queries choose from all of them.
        state.items = [...new Set([...(state.items ?? []), ...items.map((i) => i.content)])];
        state.reading = state.reading.filter((r) => r.done !== done);
        this.readMs = this.readMs === 0 ? performance.now() - startedAt : 0.8 * this.readMs + 0.2 * (performance.now() - startedAt);
        // A read whose items name no query at all (a model that left the tags out, as bare texts): which
        // query each serves is unknown, not "none" — every query of the read chooses from them in its own
        // selection call, as a query reaching a page read for others does. (A model that tags faithfully
        // and finds nothing for any objective costs a small call that chooses nothing.)
        const untagged = items.length > 0 && items.every((i) => i.serves.length === 0);
        waiting.forEach((w, index) => w.resolve(untagged ? { kind: "reuse", items: items.map((i) => i.content), followUps: followUps[index] } : { kind: "read", items: items.filter((i) => i.serves.includes(index)).map((i) => i.content), followUps: followUps[index] }));
      },
      (error: unknown) => {
        state.reading = state.reading.filter((r) => r.done !== done);
        // Another read of the page still under way (a hedged one, the first): the queries of this one wait
        // for it and choose from its items, rather than losing the page. Queue mode: another node job's run
        // stopped under the read, or one of the queries' work was found lost before it went out; a query of
        // work going on reads the page again (a lost one learns it when it does).
        const another = state.reading.length > 0 || isOwnershipLoss(error);
        waiting.forEach((w) => (!w.request.ctx.signal.aborted && (another || (w.request.ctx !== ctx && ctx.signal.aborted)) ? w.resolve(AGAIN) : w.reject(error)));
        throw error;
      },
    );
    state.reading.push({ done, startedAt });
    done.catch(() => {});
  }

  private async readFor(ctx: RunContext, page: FetchedPage, waiting: Waiting[], excerpt: boolean): Promise<PageRead> {
    const requests = waiting.map((w) => w.request);
    const text = page.content ?? "";
    let sent = text;
    let isExcerpt = false;
    if (excerpt) {
      const budget = rereadBudget(ctx.budgetOf("PAGE_TOKEN_BUDGET"));
      const passages = matchingPassages(text, requests.map((r) => `${r.objective}\n${r.query}`).join("\n"), budget * Math.min(requests.length, 4)) || trimToTokens(text, budget);
      if (passages.length < text.length) [sent, isExcerpt] = [passages, true];
    }
    const depth = Math.min(...requests.map((r) => r.depth));
    // The read's calls are settled when it ends, their tokens shared by the queries it served.
    const usage = ctx.sharedAnalysisUsage(requests.map((r) => r.queryId));
    try {
      // Read again, the page held to the window, when the server refuses it as longer than its context.
      return await withContextRetry(() => analyzeWebsite({
        prompt: ctx.prompt,
        objectives: requests.map((r) => ({ objective: r.objective, query: r.query, followUps: r.followUps })),
        url: page.url,
        title: page.title,
        text: sent,
        excerpt: isExcerpt,
        pageBudgetTokens: ctx.budgetOf("PAGE_TOKEN_BUDGET"),
        onUsage: usage.sink,
        signal: ctx.signal,
        schedule: ctx.schedule({ kind: "analysis", depth, analysesLeft: 1 }),
      }));
    } finally {
      await usage.flush().catch((error: unknown) => console.error(`[quarry] research ${ctx.id}: could not settle a page read's calls:`, error));
    }
  }
}
