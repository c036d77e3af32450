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

/** Characters per token, for estimates: the usual rule for English under the common tokenizers. */
export const CHARS_PER_TOKEN = 4;

export function estimatedTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * One call's tokens as its server counted them. A count the server did not report is estimated from
 * the characters sent (prompt) or received (reply and reasoning): llama.cpp's server, LM Studio and
 * older vLLM end a stream without its usage chunk whatever stream_options asks, and some proxies drop
 * `usage` altogether. Counted as 0, such calls would leave a research's totals and an answer's token
 * budget untouched, and the budget would never end the agent's loop.
 */
export function callTokens(reported: { input: number | undefined; output: number | undefined } | undefined, sentChars: number, receivedChars: number): TokenCount {
  return {
    promptTokens: reported?.input ?? estimatedTokens(sentChars),
    completionTokens: reported?.output ?? estimatedTokens(receivedChars),
    calls: 1,
  };
}

/** The AI SDK's usage of a call, counted as callTokens does. */
export function toTokenCount(usage: LanguageModelUsage | undefined, sentChars: number, receivedChars: number): TokenCount {
  return callTokens(usage && { input: usage.inputTokens, output: usage.outputTokens }, sentChars, receivedChars);
}

export function addTokens(a: TokenCount, b: TokenCount): TokenCount {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    calls: a.calls + b.calls,
  };
}

export const ZERO_TOKENS: TokenCount = { promptTokens: 0, completionTokens: 0, calls: 0 };
