// The tree runner: a scheduler over query nodes, not levels. When a query completes, its children
// are generated and scheduled at once; every branch goes on by itself, limited only by the shared
// LLM, search and fetch limiters. It resumes from whatever the database holds.
import { generateSerpQueries } from "../agents/generate-serp-queries";
import { errorMessage } from "../errors";
import type { SerpQuery } from "../generated/prisma/client";
import type { RunContext } from "./context";
import { toQueryView, toRunStatus } from "./public-shape";
import { processQuery } from "./query-step";
import { buildReport } from "./report-step";
import * as store from "./store";
import { childCount } from "./tree";

const ACTIVE = new Set(["pending", "searching", "scraping", "analyzing"]);

export class TreeRunner {
  private readonly inflight = new Set<Promise<void>>();
  /** Every query of the run by id, for walking a query's parent chain without reading it back. */
  private readonly queries = new Map<string, SerpQuery>();
  private fatal: unknown;

  constructor(private readonly ctx: RunContext) {}

  /** Runs (or resumes) the research to a terminal state. Never throws: failures are recorded. */
  async run(): Promise<"completed" | "failed" | "cancelled"> {
    const { ctx } = this;
    try {
      if (!ctx.research.rootQueriesGenerated) await this.generateRoots();
      const queries = await store.queriesOf(ctx.id);
      for (const q of queries) this.queries.set(q.id, q);
      for (const q of queries) {
        if (ACTIVE.has(q.status)) this.spawn(() => this.runQuery(q));
        else if (q.status === "completed" && q.depth < ctx.depth && !q.childrenGenerated) this.spawn(() => this.expand(q));
      }
      await this.idle();
      if (this.fatal) throw this.fatal;
      ctx.signal.throwIfAborted();

      const report = await buildReport(ctx);
      await ctx.flushUsage();
      const done = await store.finishResearch(ctx.id, { status: "completed", report, error: null });
      ctx.emit({ type: "report.done", markdown: report });
      ctx.emit({ type: "run.status", run: toRunStatus(done) });
      return "completed";
    } catch (error) {
      await this.idle();
      await ctx.flushUsage();
      if (ctx.signal.aborted && !this.fatal) return "cancelled";
      return this.fail(this.fatal ?? error);
    }
  }

  private async fail(error: unknown): Promise<"failed" | "cancelled"> {
    const { ctx } = this;
    const current = await store.loadResearch(ctx.id);
    if (current?.status === "cancelled") return "cancelled";
    const message = errorMessage(error);
    if (!message.startsWith("The language model is unavailable")) console.error(`[quarry] research ${ctx.id} failed:`, error);
    const failed = await store.finishResearch(ctx.id, {
      status: "failed",
      error: message,
      // Keep a partial report if the writer got that far.
      report: current?.report ?? (ctx.reportDraft || null),
    });
    ctx.emit({ type: "run.status", run: toRunStatus(failed) });
    return "failed";
  }

  private spawn(task: () => Promise<void>): void {
    if (this.fatal || this.ctx.signal.aborted) return;
    const promise: Promise<void> = task()
      .catch((error: unknown) => {
        // A severe error (LLM down past retries, a bug) stops the whole run.
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

  private async generateRoots(): Promise<void> {
    const { ctx } = this;
    const drafts = await generateSerpQueries({
      prompt: ctx.research.initialPrompt,
      qa: ctx.qa,
      count: ctx.breadth,
      contextBudgetTokens: ctx.env.CONTEXT_TOKEN_BUDGET,
      onUsage: ctx.usage(),
      signal: ctx.signal,
      schedule: ctx.schedule({ kind: "root" }),
    });
    for (const q of await store.createRootQueries(ctx.id, drafts, ctx.breadth)) ctx.emit({ type: "query.created", query: toQueryView(q) });
  }

  private async runQuery(query: SerpQuery): Promise<void> {
    const completed = await processQuery(this.ctx, query);
    if (completed && query.depth < this.ctx.depth) await this.expand(query);
  }

  /** The query and its ancestors, root first. */
  private chainOf(query: SerpQuery): SerpQuery[] {
    const chain: SerpQuery[] = [];
    for (let q: SerpQuery | undefined = query; q; q = q.parentId ? this.queries.get(q.parentId) : undefined) chain.unshift(q);
    return chain;
  }

  /** Generates a completed query's children from the whole parent chain, then schedules them. */
  private async expand(parent: SerpQuery): Promise<void> {
    const { ctx } = this;
    const count = childCount(parent.levelBreadth);
    const drafts = await generateSerpQueries({
      prompt: ctx.research.initialPrompt,
      qa: ctx.qa,
      chain: await store.chainLearnings(this.chainOf(parent)),
      count,
      contextBudgetTokens: ctx.env.CONTEXT_TOKEN_BUDGET,
      onUsage: ctx.usage(parent.id),
      signal: ctx.signal,
      schedule: ctx.schedule({ kind: "children", depth: parent.depth }),
    });
    const children = await store.createChildQueries(parent, drafts, count);
    for (const child of children) this.queries.set(child.id, child);
    for (const child of children) ctx.emit({ type: "query.created", query: toQueryView(child) });
    for (const child of children) this.spawn(() => this.runQuery(child));
  }
}
