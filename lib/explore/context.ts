// What every step of a run shares: the research's parameters, the abort signal, event emission
// and token accounting.
import { usersLanguage, type Language } from "../ai/language";
import { BoundedMap } from "../bounded-map";
import { setMaxListeners } from "node:events";
import type { Research } from "../db/types";
import type { Env } from "../env";
import { promptBudget, type PromptBudget } from "../ai/context-limit";
import type { RunTopic } from "../events/bus";
import { treeTopic, type TreeEvent } from "./events";
import type { QA } from "../ai/prompts";
import type { TokenCount, UsageSink } from "../ai/usage";
import type { HealthState, ProviderHealth } from "../ai/provider-health";
import type { WaitOptions } from "../concurrency";
import * as store from "../db/tree";
import { parseStringArray, toRunStatus } from "./public-shape";
import { llmPriority } from "./tree";
import { parseSources, type Sources } from "../knowledge/sources";
import { PageReads } from "./page-reads";

/** A page whose fetch has finished (in this run or before it), with its text. */
export interface FetchedPage {
  url: string;
  status: "scraped" | "failed";
  title: string | null;
  content: string | null;
  error: string | null;
  /**
   * The fetch's result being recorded (a page this process fetched): its analyses go on meanwhile and
   * wait for it before their save. Absent when the page was read from the database.
   */
  recorded?: Promise<void>;
}

/**
 * What a tree explores: the prompt, the researcher's answers, the shape, and the research whose
 * queries, pages and extracted items hold the tree (a tree research's own, or one a Deep Research
 * task created for its literature search).
 */
export interface TreeScope {
  researchId: string;
  prompt: string;
  qa: QA[];
  depth: number;
  breadth: number;
  /** SearXNG categories for its searches (a literature task asks for scholarly ones too); default: SearXNG's. */
  categories?: string[];
  /** Page analyses one query runs at once; default ANALYZE_CONCURRENCY_PER_QUERY. */
  analyzeConcurrency?: number;
  /** Where its queries search (the web, collections, or both); default the web only. */
  sources?: Sources;
  /** Whose collections it may read (null: shared ones only). */
  userId?: string | null;
}

/** What a follow-up's agents are told about the research it builds on, beside the researcher's answers. */
export const FOLLOW_UP_QUESTION = "This research follows up on an earlier one. What did that research find (build on it; do not repeat it)?";

/** The scope of a tree research row. A follow-up's background reaches its agents with the researcher's answers. */
export function scopeOfResearch(research: Research): TreeScope {
  const questions = parseStringArray(research.followupQuestions);
  const answers = parseStringArray(research.followupAnswers);
  const qa = questions.map((question, i) => ({ question, answer: answers[i] ?? "" }));
  if (research.background) qa.push({ question: FOLLOW_UP_QUESTION, answer: research.background });
  return {
    researchId: research.id,
    prompt: research.initialPrompt,
    qa,
    depth: research.depth ?? 1,
    breadth: research.breadth ?? 1,
    sources: parseSources(research.sources),
    userId: research.userId,
  };
}

/** Where a run's events go: the event bus, or any listener a library caller gives. */
export interface EventSink {
  emit(topic: RunTopic, event: TreeEvent): void;
}

/** Queue mode: the pages read by this process's node jobs, and what their reads extracted, per research (the latest 64 researches). */
const readsHere = new BoundedMap<string, PageReads>(64);

export class RunContext {
  /** Page fetches by page id: a URL is fetched at most once per research, and read once. */
  readonly pageFetches = new Map<string, Promise<FetchedPage>>();
  /**
   * The run's page reads: a page goes to the analyser once, for every query waiting for it then, and a
   * later query chooses from what that read extracted (./page-reads.ts). In queue mode, shared by the
   * research's node jobs in this process (a page another process read is read here in passages).
   */
  readonly pageReads: PageReads;
  reportDraft = "";
  /** Pause and warning writes, in order. */
  private writes: Promise<void> = Promise.resolve();
  private readonly fatalController = new AbortController();
  /** Aborted on cancel, or when a severe error stops the run. */
  readonly signal: AbortSignal;

  /** A prompt budget as this run reads it: the configured one, held to a known context window (lib/ai/context-limit.ts). */
  budgetOf(name: PromptBudget): number {
    return promptBudget(this.env, name);
  }

  constructor(
    readonly scope: TreeScope,
    readonly env: Env,
    readonly bus: EventSink,
    cancelSignal: AbortSignal,
    /** True once another process took the run over: the run stops and writes nothing more. */
    readonly leaseLost: () => boolean = () => false,
    /**
     * Queue mode's node jobs: other processes work on the same tree at once, so a page's fetch is
     * claimed in the database (not only shared in memory) and a page another query analysed is
     * re-read in passages (lib/explore/query-step.ts).
     */
    readonly distributed = false,
  ) {
    this.pageReads = distributed ? readsHere.getOrAdd(scope.researchId, () => new PageReads()) : new PageReads();
    this.signal = AbortSignal.any([cancelSignal, this.fatalController.signal]);
    // Every queued limiter waiter and in-flight fetch of the run listens to this one signal.
    setMaxListeners(0, this.signal);
  }

  get id(): string {
    return this.scope.researchId;
  }

  get prompt(): string {
    return this.scope.prompt;
  }

  get qa(): QA[] {
    return this.scope.qa;
  }

  private userLanguage?: Language | null;

  /** The language the researcher writes in (the prompt and their answers): the report's (lib/ai/language.ts). */
  get language(): Language | null {
    if (this.userLanguage === undefined) {
      const answers = this.qa.filter((q) => q.question !== FOLLOW_UP_QUESTION).map((q) => q.answer);
      this.userLanguage = usersLanguage(this.prompt, ...answers);
    }
    return this.userLanguage;
  }

  get depth(): number {
    return this.scope.depth;
  }

  get breadth(): number {
    return this.scope.breadth;
  }

  /** Stops every in-flight step after a severe error. */
  abortOnFatal(): void {
    this.fatalController.abort(new Error("The run stopped after a severe error"));
  }

  emit(event: TreeEvent): void {
    this.bus.emit(treeTopic(this.id), event);
  }

  /**
   * A usage sink that records each call on the research before it is sent, and its tokens (on the
   * research and the query, if given) as it returns.
   */
  usage(queryId?: string): UsageSink {
    const sink: UsageSink = async (t: TokenCount) => {
      await store.addUsage(this.id, t, queryId, { settles: true });
      this.announceUsageSoon();
    };
    sink.begin = () => store.beginUsage(this.id);
    return sink;
  }

  /**
   * A page analysis's usage, the most frequent call of a run: each call is counted unsettled on the
   * research before it is sent, as usage() does, but its tokens are held and settled with the
   * analysis's save (`take`, for store.saveAnalysis's `spent`: on PostgreSQL in the save's own
   * statement), and the query's share is written with the query's completion (takeQueryTokens): two
   * statements less per page analysis. `flush` settles what is still held (an analysis that ended
   * without a save). A crash in between leaves the calls unsettled: counted, as calls in flight are.
   */
  analysisUsage(queryId: string): { sink: UsageSink; take(): store.SettledCalls | undefined; flush(): Promise<void> } {
    return this.heldUsage((t) => {
      const pending = this.queryTokens.get(queryId) ?? { promptTokens: 0, completionTokens: 0 };
      pending.promptTokens += t.promptTokens;
      pending.completionTokens += t.completionTokens;
      this.queryTokens.set(queryId, pending);
    }, (spent) => store.settleCalls(this.id, spent));
  }

  /**
   * A page read's usage (one call for several queries): each call counted unsettled before it is sent,
   * its tokens shared by the queries it served (written with each one's completion, as analysisUsage's)
   * and settled on the research when the read ends (`flush`).
   */
  sharedAnalysisUsage(queryIds: string[]): { sink: UsageSink; take(): store.SettledCalls | undefined; flush(): Promise<void> } {
    const share = (total: number, i: number) => Math.floor(total / queryIds.length) + (i < total % queryIds.length ? 1 : 0);
    return this.heldUsage((t) => {
      queryIds.forEach((queryId, i) => {
        const pending = this.queryTokens.get(queryId) ?? { promptTokens: 0, completionTokens: 0 };
        pending.promptTokens += share(t.promptTokens, i);
        pending.completionTokens += share(t.completionTokens, i);
        this.queryTokens.set(queryId, pending);
      });
    }, (spent) => store.settleCalls(this.id, spent));
  }

  /**
   * A children planning's usage (its call and any repairs): each call counted unsettled before it is
   * sent, as usage() does, its tokens held and settled, on the research and the parent query, with the
   * children's insert (`take`, for store.createChildQueries's `spent`: on PostgreSQL in the insert's
   * own statement): two round trips less on every level's path from a planning answer to the
   * children's searches. `flush` settles what is still held (a planning that ends without children).
   */
  planningUsage(queryId: string): { sink: UsageSink; take(): store.SettledCalls | undefined; flush(): Promise<void> } {
    return this.heldUsage(() => {}, (spent) => store.settleCalls(this.id, spent, queryId));
  }

  /** A sink whose calls' tokens are held for the caller's write (take), or settled on their own (flush). */
  private heldUsage(onTokens: (t: TokenCount) => void, settle: (spent: store.SettledCalls) => Promise<void>) {
    let held: store.SettledCalls | undefined;
    const sink: UsageSink = (t: TokenCount) => {
      held ??= { promptTokens: 0, completionTokens: 0, calls: 0, settles: 0 };
      held.promptTokens += t.promptTokens;
      held.completionTokens += t.completionTokens;
      held.calls += t.calls;
      held.settles++;
      onTokens(t);
      this.announceUsageSoon();
    };
    sink.begin = () => store.beginUsage(this.id);
    const take = () => {
      const spent = held;
      held = undefined;
      return spent;
    };
    return {
      sink,
      take,
      flush: async () => {
        const spent = take();
        if (spent) await settle(spent);
      },
    };
  }

  /** Token usage of page analyses not yet written to their query (see analysisUsage). */
  private readonly queryTokens = new Map<string, { promptTokens: number; completionTokens: number }>();

  /** The query's deferred token usage, taken to be written with its completion. */
  takeQueryTokens(queryId: string): { promptTokens: number; completionTokens: number } | undefined {
    const tokens = this.queryTokens.get(queryId);
    this.queryTokens.delete(queryId);
    return tokens;
  }

  private usageTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * Token and call counters are live: the run's status (which carries them) is announced at most
   * twice a second while calls return, not once per call (hundreds of page analyses).
   */
  private announceUsageSoon(): void {
    if (this.usageTimer) return;
    this.usageTimer = setTimeout(() => {
      this.usageTimer = null;
      // Through the write chain, so that settled() (awaited before the final status) covers it.
      this.writes = this.writes.then(() => this.emitRunStatus()).catch((error: unknown) => console.error("[quarry] could not announce usage:", error));
    }, 500);
    this.usageTimer.unref?.();
  }

  /** Records a warning on the research (serialised: warnings are one JSON column). */
  warn(message: string): Promise<void> {
    console.warn(`[quarry] research ${this.id}: ${message}`);
    this.writes = this.writes.then(() => store.addWarning(this.id, message)).catch((error: unknown) => console.error("[quarry] could not record a warning:", error));
    return this.writes.then(() => this.emitRunStatus());
  }

  /**
   * Shows the run paused while the LLM provider is down, and running again when it is back
   * (`pausedNow`: whether the research row shows it paused already). Returns the function that stops
   * watching.
   */
  watchProvider(health: ProviderHealth, { pausedNow }: { pausedNow: boolean }): () => void {
    const apply = (state: HealthState) => {
      this.writes = this.writes
        .then(async () => {
          const research = await store.setPaused(this.id, state.down ? `Waiting for the LLM provider: ${state.reason}` : null, state.since ?? undefined);
          if (research.status === "running") this.emit({ type: "run.status", data: toRunStatus(research) });
        })
        .catch((error: unknown) => console.error("[quarry] could not record the pause:", error));
    };
    // Say so now if the state differs from the row's: down already, or shown paused from before a restart.
    if (health.state.down || pausedNow) apply(health.state);
    const unsubscribe = health.subscribe(apply);
    return () => void unsubscribe();
  }

  /** Resolves when every pause and warning write so far is done. */
  settled(): Promise<void> {
    // A pending usage announcement is dropped: the final status carries the final counts.
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = null;
    return this.writes;
  }

  private async emitRunStatus(): Promise<void> {
    const research = await store.loadResearch(this.id);
    if (research?.status === "running") this.emit({ type: "run.status", data: toRunStatus(research) });
  }

  /** Where an LLM call of this run waits for a slot: the run's own lane, at its priority there. */
  schedule(call: Parameters<typeof llmPriority>[0]): WaitOptions {
    return { lane: this.id, priority: llmPriority(call, { depth: this.depth, pagesPerQuery: this.env.SEARCH_MAX_RESULTS }) };
  }
}
