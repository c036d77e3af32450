// What every step of a run shares: the research's parameters, the abort signal, event emission
// and token accounting.
import { setMaxListeners } from "node:events";
import type { Research } from "../generated/prisma/client";
import type { Env } from "../env";
import type { EventBus, ResearchEvent } from "../events/bus";
import type { QA } from "../ai/prompts";
import { addTokens, ZERO_TOKENS, type TokenCount, type UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";
import * as store from "./store";
import { parseStringArray } from "./public-shape";
import { llmPriority } from "./tree";

/** A page whose fetch has finished (in this run or before it), with its text. */
export interface FetchedPage {
  url: string;
  status: "scraped" | "failed";
  title: string | null;
  content: string | null;
  error: string | null;
}

const USAGE_FLUSH_MS = 1_000;

export interface RunHooks {
  /** Called with each event after it is emitted (the CLI prints progress from these). */
  onEvent?: (event: ResearchEvent) => void;
}

export class RunContext {
  readonly qa: QA[];
  readonly depth: number;
  readonly breadth: number;
  /** Page fetches by page id: a URL is fetched at most once per research, and read once. */
  readonly pageFetches = new Map<string, Promise<FetchedPage>>();
  reportDraft = "";
  private usageWrites: Promise<void> = Promise.resolve();
  private unsavedUsage = { total: ZERO_TOKENS, perQuery: new Map<string, TokenCount>() };
  private usageTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly fatalController = new AbortController();
  /** Aborted on cancel, or when a severe error stops the run. */
  readonly signal: AbortSignal;

  constructor(
    readonly research: Research,
    readonly env: Env,
    readonly bus: EventBus,
    cancelSignal: AbortSignal,
    private readonly hooks: RunHooks = {},
  ) {
    this.signal = AbortSignal.any([cancelSignal, this.fatalController.signal]);
    // Every queued limiter waiter and in-flight fetch of the run listens to this one signal.
    setMaxListeners(0, this.signal);
    const questions = parseStringArray(research.followupQuestions);
    const answers = parseStringArray(research.followupAnswers);
    this.qa = questions.map((question, i) => ({ question, answer: answers[i] ?? "" }));
    this.depth = research.depth ?? 1;
    this.breadth = research.breadth ?? 1;
  }

  /** Stops every in-flight step after a severe error. */
  abortOnFatal(): void {
    this.fatalController.abort(new Error("The run stopped after a severe error"));
  }

  get id(): string {
    return this.research.id;
  }

  emit(event: ResearchEvent): void {
    this.bus.emit(this.id, event);
    this.hooks.onEvent?.(event);
  }

  /**
   * A usage sink that adds each call's tokens to the research (and the query, if given). Counts are
   * gathered in memory and written about once a second, and always before the run ends: two writes
   * per LLM call cost more than the rest of the run's bookkeeping.
   */
  usage(queryId?: string): UsageSink {
    return (t: TokenCount) => {
      this.unsavedUsage.total = addTokens(this.unsavedUsage.total, t);
      if (queryId) this.unsavedUsage.perQuery.set(queryId, addTokens(this.unsavedUsage.perQuery.get(queryId) ?? ZERO_TOKENS, t));
      this.usageTimer ??= setTimeout(() => void this.flushUsage(), USAGE_FLUSH_MS);
    };
  }

  /** Writes the usage gathered so far; resolves when every earlier write is done. */
  flushUsage(): Promise<void> {
    clearTimeout(this.usageTimer);
    this.usageTimer = undefined;
    const { total, perQuery } = this.unsavedUsage;
    if (total.calls > 0 || total.promptTokens > 0 || total.completionTokens > 0) {
      this.unsavedUsage = { total: ZERO_TOKENS, perQuery: new Map() };
      // Serialised so that counters never race.
      this.usageWrites = this.usageWrites
        .then(() => store.addUsage(this.id, total, perQuery))
        .catch((error: unknown) => console.error("[quarry] could not record token usage:", error));
    }
    return this.usageWrites;
  }

  /** Where an LLM call of this run waits for a slot: the run's own lane, at its priority there. */
  schedule(call: Parameters<typeof llmPriority>[0]): WaitOptions {
    return { lane: this.id, priority: llmPriority(call, { depth: this.depth, pagesPerQuery: this.env.SEARCH_MAX_RESULTS }) };
  }
}
