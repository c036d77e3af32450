// Token budget of one answer run: totals as the provider reports them, by purpose. 85% is for the
// loop, the rest is kept for beast mode. Before every call the worst case (the prompt estimated
// high, plus the reply's max output tokens, which the call is capped to) must fit in what is left,
// so the total can never pass the budget.
import type { UsageSink } from "../ai/usage";
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

export class TokenBudget {
  constructor(
    readonly total: number,
    readonly usage: UsageByPurpose,
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

  /** The guard for lib/ai/call.ts: the capped max output tokens of the next exchange, or throws. */
  guard(phase: "loop" | "beast", maxOutput = DEFAULT_MAX_OUTPUT): (text: string) => number {
    return (text) => {
      const room = this.room(phase, text);
      if (room < Math.min(MIN_OUTPUT_TOKENS, maxOutput)) throw new BudgetExhaustedError(phase);
      return Math.min(maxOutput, room);
    };
  }

  /** Adds a call's usage, as the provider reported it, to its purpose. */
  sink(purpose: Purpose): UsageSink {
    return (t) => {
      const u = this.usage[purpose];
      this.usage[purpose] = { promptTokens: u.promptTokens + t.promptTokens, completionTokens: u.completionTokens + t.completionTokens, calls: u.calls + t.calls };
    };
  }
}
