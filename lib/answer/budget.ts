// Token budget of one answer run: totals as the provider reports them, by purpose. 85% is for the
// loop, the rest is kept for beast mode. Before every call the worst case (the prompt estimated
// high, plus the reply's max output tokens, which the call is capped to) must fit in what is left,
// so the total can never pass the budget.
import { estimateTokens } from "../ai/prompts";
import type { TokenCount, UsageSink } from "../ai/usage";
import { totalOf, type Purpose, type UsageByPurpose } from "./types";

export const LOOP_SHARE = 0.85;
/** A reply shorter than this is useless: below it the phase is over. */
export const MIN_OUTPUT_TOKENS = 200;
export const DEFAULT_MAX_OUTPUT = 4_000;

export class BudgetExhaustedError extends Error {
  constructor(readonly phase: "loop" | "beast") {
    super(phase === "loop" ? "The loop's share of the token budget is spent" : "The token budget is too small for a final answer");
    this.name = "BudgetExhaustedError";
  }
}

/**
 * A high estimate of a text's prompt tokens: non-ASCII characters (CJK, emoji) can cost a token
 * each; ASCII text runs about 4 characters a token, counted here as 3. Plus message framing.
 */
export function worstCaseTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) ch.charCodeAt(0) < 128 ? ascii++ : other++;
  return Math.ceil(ascii / 3) + other + 32;
}

/**
 * Where a run's usage is made durable call by call: `begin` before an exchange is sent, `settle`
 * with the run's usage once it holds the call's share (lib/ai/usage.ts's begin and settle).
 */
export interface UsageRecorder {
  begin(): Promise<void>;
  settle(usage: UsageByPurpose, totalTokens: number): Promise<void>;
}

/** An aborted call's prompt, as counted: its tokens are unknown (no reply, no usage), about 4 characters a token. */

export class TokenBudget {
  // The recorder's writes, one after another: each stores the usage as it is when it runs, so a
  // later write never holds less than an earlier one.
  private writes: Promise<void> = Promise.resolve();
  /** The text the last guard was asked about: the next call to begin sends it. */
  private outgoing: string | undefined;

  /**
   * `signal`: the run's. A call it aborted was sent and its prompt paid for, but has no usage: it is
   * counted with its prompt's estimate (the text its guard saw), so that the stored usage holds
   * every call made, aborted or not.
   */
  constructor(
    readonly total: number,
    readonly usage: UsageByPurpose,
    private readonly recorder?: UsageRecorder,
    private readonly signal?: AbortSignal,
  ) {}

  get used(): number {
    return totalOf(this.usage);
  }

  limit(phase: "loop" | "beast"): number {
    return phase === "loop" ? Math.floor(this.total * LOOP_SHARE) : this.total;
  }

  /** Tokens a reply may take after a prompt of this text, or 0 when the phase cannot afford it. */
  room(phase: "loop" | "beast", text: string): number {
    return Math.max(0, this.limit(phase) - this.used - worstCaseTokens(text));
  }

  /**
   * The guard for lib/ai/call.ts: the capped max output tokens of the next exchange, or throws. A
   * reasoning model's room to think (lib/ai/reasoning-room.ts) is added to the cap, within the budget.
   */
  guard(phase: "loop" | "beast", maxOutput = DEFAULT_MAX_OUTPUT): (text: string, reasoningTokens?: number) => number {
    return (text, reasoningTokens = 0) => {
      this.outgoing = text;
      const room = this.room(phase, text);
      if (room < Math.min(MIN_OUTPUT_TOKENS, maxOutput)) throw new BudgetExhaustedError(phase);
      return Math.min(maxOutput + reasoningTokens, room);
    };
  }

  /**
   * Adds a call's usage, as the provider reported it, to its purpose. With a recorder, a call is
   * recorded as begun before it is sent and settled with the usage stored after it returns.
   */
  sink(purpose: Purpose): UsageSink {
    const add = (t: TokenCount) => {
      const u = this.usage[purpose];
      this.usage[purpose] = { promptTokens: u.promptTokens + t.promptTokens, completionTokens: u.completionTokens + t.completionTokens, calls: u.calls + t.calls };
    };
    const recorder = this.recorder;
    if (!recorder) return add;
    // The prompts of the calls begun and not settled, oldest first (a settle settles the oldest).
    const sent: (string | undefined)[] = [];
    const sink = async (t: TokenCount) => {
      const prompt = sent.shift();
      const aborted = t.calls === 0 && this.signal?.aborted && prompt !== undefined;
      add(aborted ? { promptTokens: estimateTokens(prompt), completionTokens: 0, calls: 1 } : t);
      // A call never begun (no begin) is only counted in memory: nothing to settle.
      if (prompt === undefined) return;
      await this.serially(() => recorder.settle(this.usage, this.used));
    };
    return Object.assign(sink, {
      begin: async () => {
        sent.push(this.outgoing ?? "");
        this.outgoing = undefined;
        await this.serially(() => recorder.begin());
      },
    });
  }

  private serially(write: () => Promise<void>): Promise<void> {
    const done = this.writes.then(write);
    this.writes = done.catch(() => undefined);
    return done;
  }
}
