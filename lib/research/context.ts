// What every step of a run shares: the research's parameters, the abort signal, event emission
// and token accounting.
import { setMaxListeners } from "node:events";
import type { Research } from "../generated/prisma/client";
import type { Env } from "../env";
import type { EventBus, ResearchEvent } from "../events/bus";
import type { QA } from "../ai/prompts";
import type { TokenCount, UsageSink } from "../ai/usage";
import * as store from "./store";
import { parseStringArray } from "./public-shape";

export interface RunHooks {
  /** Called with each event after it is emitted (the CLI prints progress from these). */
  onEvent?: (event: ResearchEvent) => void;
}

export class RunContext {
  readonly qa: QA[];
  readonly depth: number;
  readonly breadth: number;
  /** In-flight page fetches by page id: a URL is fetched at most once per research. */
  readonly pageFetches = new Map<string, Promise<void>>();
  reportDraft = "";
  private usageWrites: Promise<void> = Promise.resolve();
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

  /** A usage sink that adds each call's tokens to the research (and the query, if given). */
  usage(queryId?: string): UsageSink {
    return (t: TokenCount) => {
      // Serialised so that counters never race; awaited by flushUsage() before the run ends.
      this.usageWrites = this.usageWrites.then(() => store.addUsage(this.id, queryId, t)).catch((error) => {
        console.error("[quarry] could not record token usage:", error);
      });
    };
  }

  flushUsage(): Promise<void> {
    return this.usageWrites;
  }
}
