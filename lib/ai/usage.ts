import type { LanguageModelUsage } from "ai";

export interface TokenCount {
  promptTokens: number;
  completionTokens: number;
  calls: number;
}

/**
 * Receives the token usage of every LLM call; the runner adds it to the research and the query.
 * The call waits for it, so that a sink that writes to the database records each call durably.
 *
 * A sink with `begin` is told before each exchange is sent (lib/ai/call.ts), and its call then
 * settles that one, always — with zero usage when the exchange failed. A database sink counts the
 * call as unsettled at `begin` and moves it to the totals when settled, so a call in flight at a
 * crash stays counted (unsettled, tokens unknown) instead of vanishing. The database sinks combine a
 * row's begins and settles that overlap into one statement (lib/db/combined-counters.ts).
 */
export type UsageSink = ((usage: TokenCount) => void | Promise<void>) & { begin?: () => void | Promise<void> };

export function toTokenCount(usage: LanguageModelUsage | undefined, calls = 1): TokenCount {
  return {
    promptTokens: usage?.inputTokens ?? 0,
    completionTokens: usage?.outputTokens ?? 0,
    calls,
  };
}

export function addTokens(a: TokenCount, b: TokenCount): TokenCount {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    calls: a.calls + b.calls,
  };
}

export const ZERO_TOKENS: TokenCount = { promptTokens: 0, completionTokens: 0, calls: 0 };
