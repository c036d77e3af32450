// The tree runner: a scheduler over query nodes, not levels. When a query completes, its children
// are generated and scheduled at once; every branch goes on by itself, limited only by the shared
// LLM, search and fetch limiters. It resumes from whatever the database holds.
//
// Failures stay as small as they can: a page whose analysis fails is marked failed and its query
// goes on; a branch whose follow-up queries cannot be planned is tried again later, then ends with a
// warning. The research fails only when it cannot go on at all (no root queries, no report, the LLM
// refusing every call, a bug), and then stays resumable.
import { chooseFollowUps, generateSerpQueries, QueryShortfallError, type SerpQueryDraft } from "../agents/generate-serp-queries";
import { isLostCall } from "../ai/errors";
import { allOrFirstError, sleep } from "../concurrency";
import type { QueryLearnings, SerpQuery } from "../db/types";
import type { RunContext } from "./context";
import { toQueryView, toWebsiteView } from "./public-shape";
import { processQuery } from "./query-step";
import * as store from "../db/tree";
import { childCount } from "./tree";

export const ACTIVE = new Set(["pending", "searching", "scraping", "analyzing"]);
/** Waits before planning queries again after the LLM call for it was lost: the delay, then 4× it. */
/** Later tries of a planning whose call was lost (exported for the LLM-call bound test). */
export const planRetryDelays = (base: number) => [base, base * 4];

/** A query's children's planning under way: its drafts, and the sink its calls are counted by. */
interface Planning {
  usage: ReturnType<RunContext["planningUsage"]>;
  drafts: Promise<SerpQueryDraft[] | null>;
}

export class TreeRunner {
  private readonly inflight = new Set<Promise<void>>();
  /** Every query of the run by id, for walking a query's parent chain without reading it back. */
  private readonly queries = new Map<string, SerpQuery>();
  private fatal: unknown;

  /**
   * `handOff`: where a node's new children go instead of running here (queue mode's node jobs,
   * lib/explore/distributed.ts); by default they are scheduled in this runner.
   */
  constructor(
    private readonly ctx: RunContext,
    private readonly handOff?: (children: SerpQuery[]) => Promise<void>,
  ) {}

  /** Plans the root queries unless they were planned before (queue mode's coordinator). */
  async ensureRoots(): Promise<void> {
    if (!(await store.loadResearch(this.ctx.id))?.rootQueriesGenerated) await this.generateRoots();
  }

  /**
   * One node's work, as a node job does it: the query from its last durable status (search, pages,
   * analyses), then its children planned and handed off; or only the children, when the query had
   * completed before. Errors are thrown (the job is retried). `chain`: the query's ancestors, root
   * first, then the query (store.loadNode): all of the tree its children's planning reads.
   */
  async runNode(chain: SerpQuery[]): Promise<void> {
    const query = chain[chain.length - 1];
    for (const q of chain) this.queries.set(q.id, q);
    if (ACTIVE.has(query.status)) await this.runQuery(query);
    else if (query.status === "completed" && query.depth < this.ctx.depth && !query.childrenGenerated) await this.expand(query);
  }

  /**
   * Explores the tree (or goes on exploring it) to its end, without writing the report or touching
   * the research's status (see exploreTree). On a failure or a cancel, what is unfinished is settled
   * as stopped and the error is thrown.
   */
  async explore(): Promise<void> {
    try {
      await this.scheduleAll();
      this.ctx.signal.throwIfAborted();
    } catch (error) {
      await this.idle();
      if (!this.ctx.leaseLost()) await this.settle();
      throw this.fatal ?? error;
    }
  }

  private async scheduleAll(): Promise<void> {
    const { ctx } = this;
    if (!(await store.loadResearch(ctx.id))?.rootQueriesGenerated) await this.generateRoots();
    const queries = await store.queriesOf(ctx.id);
    for (const q of queries) this.queries.set(q.id, q);
    for (const q of queries) {
      if (ACTIVE.has(q.status)) this.spawn(() => this.runQuery(q));
      else if (q.status === "completed" && q.depth < ctx.depth && !q.childrenGenerated) this.spawn(() => this.expand(q));
    }
    await this.idle();
    if (this.fatal) throw this.fatal;
  }

  /** Every query, page and analysis still in progress becomes `stopped`, and the clients hear of it. */
  async settle(): Promise<void> {
    const { ctx } = this;
    try {
      const { queries, rows } = await store.settleStopped(ctx.id);
      for (const q of queries) ctx.emit({ type: "query.status", data: toQueryView(q) });
      for (const row of rows) ctx.emit({ type: "page.status", data: toWebsiteView(row) });
    } catch (error) {
      console.error(`[quarry] research ${ctx.id}: could not settle unfinished rows:`, error);
    }
  }

  private spawn(task: () => Promise<void>): void {
    if (this.fatal || this.ctx.signal.aborted) return;
    const promise: Promise<void> = task()
      .catch((error: unknown) => {
        // What is left here cannot be worked around (the LLM refusing every call, a bug): stop the run.
        if (!this.fatal && !this.ctx.signal.aborted) {
          this.fatal = error;
          this.ctx.abortOnFatal();
        }
      })
      .finally(() => this.inflight.delete(promise));
    this.inflight.add(promise);
  }

  private async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /**
   * Plans queries, trying again later when the LLM call is lost. Resolves with the drafts, or with
   * null (after a warning) when planning keeps failing; a shortfall after the agent's own repairs
   * is accepted with a warning.
   */
  private async plan(what: string, generate: () => Promise<SerpQueryDraft[]>): Promise<SerpQueryDraft[] | null> {
    const { ctx } = this;
    for (let round = 0; ; round++) {
      try {
        return await generate();
      } catch (error) {
        if (error instanceof QueryShortfallError) {
          await ctx.warn(`${error.message} for ${what}; the research went on with ${error.queries.length}.`);
          return error.queries;
        }
        if (!isLostCall(error)) throw error;
        const delays = planRetryDelays(ctx.env.PLAN_RETRY_DELAY_MS);
        if (round >= delays.length) {
          await ctx.warn(`Could not plan ${what}: ${error.message}. Resume the research to try again.`);
          return null;
        }
        await sleep(delays[round], ctx.signal);
      }
    }
  }

  private async generateRoots(): Promise<void> {
    const { ctx } = this;
    const drafts = await this.plan("the research queries", () =>
      generateSerpQueries({
        prompt: ctx.prompt,
        qa: ctx.qa,
        count: ctx.breadth,
        contextBudgetTokens: ctx.budgetOf("CONTEXT_TOKEN_BUDGET"),
        onUsage: ctx.usage(),
        signal: ctx.signal,
        schedule: ctx.schedule({ kind: "root" }),
      }),
    );
    if (!drafts?.length) throw new Error("No search query could be planned for this research (see its warnings).");
    for (const q of await store.createRootQueries(ctx.id, drafts, ctx.breadth)) ctx.emit({ type: "query.created", data: toQueryView(q) });
  }

  private async runQuery(query: SerpQuery): Promise<void> {
    const expands = query.depth < this.ctx.depth;
    let planning: Planning | undefined;
    let done;
    try {
      // The children's planning starts once the query's pages are settled, beside its selection call: from
      // what its pages' reads proposed when they proposed enough, else by the Query Generator.
      const expansion = expands ? { followUps: childCount(query.levelBreadth), onLearned: (learned: QueryLearnings["learnings"], proposed: SerpQueryDraft[][]) => void (planning = this.startPlanning(query, learned, proposed)) } : undefined;
      done = await processQuery(this.ctx, query, expansion);
    } catch (error) {
      if (planning) await this.abandon(planning);
      throw error;
    }
    if (!done) return planning && this.abandon(planning);
    if (expands) await this.expand(query, done.completed, planning);
    else await done.completed;
  }

  /** The query and its ancestors, root first. */
  private chainOf(query: SerpQuery): SerpQuery[] {
    const chain: SerpQuery[] = [];
    for (let q: SerpQuery | undefined = query; q; q = q.parentId ? this.queries.get(q.parentId) : undefined) chain.unshift(q);
    return chain;
  }

  /**
   * Plans a query's children: chosen from the follow-up searches its pages' reads proposed (`proposed`, per
   * page) when they hold enough distinct ones — the readers saw the pages whole, and no call waits after
   * them — else from its whole parent chain by the Query Generator: what the ancestors learned, as stored,
   * and what the query learned (`learned`, while its selection is still being made; as stored when not given).
   */
  private startPlanning(parent: SerpQuery, learned?: QueryLearnings["learnings"], proposed: SerpQueryDraft[][] = []): Planning {
    const { ctx } = this;
    const count = childCount(parent.levelBreadth);
    // The planning's calls are settled with the children's insert, or on their own when there is none.
    const usage = ctx.planningUsage(parent.id);
    const chosen = chooseFollowUps(proposed, count, this.chainOf(parent).map((q) => q.text));
    if (chosen.length === count) return { usage, drafts: Promise.resolve(chosen) };
    const drafts = (async () => {
      const chain = await store.chainLearnings(this.chainOf(parent));
      if (learned) chain[chain.length - 1] = { ...chain[chain.length - 1], learnings: learned };
      return this.plan(`the follow-up queries of "${parent.text}"`, () =>
        generateSerpQueries({
          prompt: ctx.prompt,
          qa: ctx.qa,
          chain,
          count,
          contextBudgetTokens: ctx.budgetOf("CONTEXT_TOKEN_BUDGET"),
          onUsage: usage.sink,
          signal: ctx.signal,
          schedule: ctx.schedule({ kind: "children", depth: parent.depth }),
        }),
      );
    })();
    drafts.catch(() => {});
    return { usage, drafts };
  }

  /** A planning whose query did not complete: it ends, and its calls are settled. */
  private async abandon({ usage, drafts }: Planning): Promise<void> {
    await drafts.catch(() => {});
    await this.settleCalls(usage);
  }

  private settleCalls(usage: Planning["usage"]): Promise<void> {
    return usage.flush().catch((error: unknown) => console.error(`[quarry] research ${this.ctx.id}: could not settle a planning's calls:`, error));
  }

  /**
   * Inserts a completed query's planned children (planned here when no planning was started), then
   * schedules them. `completed`: the parent's completion, when it is still being written.
   */
  private async expand(parent: SerpQuery, completed?: Promise<unknown>, planning = this.startPlanning(parent)): Promise<void> {
    const { usage, drafts: planned } = planning;
    let children: SerpQuery[];
    try {
      // Both end before anything goes on: nothing of the node is written after it ends.
      await allOrFirstError<unknown>([planned, completed ?? Promise.resolve()]);
      const drafts = await planned;
      // Nothing planned: the branch ends here, and a resume tries again (children were not generated).
      if (!drafts?.length) return;
      // An insert that fails (the database does) leaves the calls unsettled: counted, as at a crash.
      children = await store.createChildQueries(parent, drafts, childCount(parent.levelBreadth), usage.take());
    } finally {
      await this.settleCalls(usage);
    }
    const { ctx } = this;
    for (const child of children) this.queries.set(child.id, child);
    for (const child of children) ctx.emit({ type: "query.created", data: toQueryView(child) });
    if (this.handOff) await this.handOff(children);
    else for (const child of children) this.spawn(() => this.runQuery(child));
  }
}
