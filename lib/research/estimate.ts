// The wizard's time, token and cost ranges, computed on the server from the configured per-call
// figures and price (lib/env.ts): the browser receives numbers only.
import { getEnv, loadEnv, type Env } from "../env";
import { estimateRangeTable, type EstimateFigures, type EstimateRanges } from "../estimate-ranges";

export function estimateFigures(env: Env): EstimateFigures {
  const input = env.LLM_PRICE_INPUT_PER_MTOK;
  const output = env.LLM_PRICE_OUTPUT_PER_MTOK;
  return {
    promptTokensPerCall: env.ESTIMATE_PROMPT_TOKENS_PER_CALL,
    completionTokensPerCall: env.ESTIMATE_COMPLETION_TOKENS_PER_CALL,
    reportPromptTokensMax: env.REPORT_TOKEN_BUDGET,
    reportCompletionTokens: env.ESTIMATE_REPORT_COMPLETION_TOKENS,
    secondsPerCall: env.ESTIMATE_SECONDS_PER_CALL,
    reportSeconds: env.ESTIMATE_REPORT_SECONDS,
    llmConcurrency: env.LLM_CONCURRENCY,
    analyzeConcurrency: env.ANALYZE_CONCURRENCY_PER_QUERY,
    // A cost needs both prices; one alone would understate it.
    price: input !== undefined && output !== undefined ? { inputPerMTok: input, outputPerMTok: output } : null,
  };
}

/** `table[depth - 1][breadth - 1]` for every choice up to the configured limits. */
export function wizardEstimates(env: Env): EstimateRanges[][] {
  return estimateRangeTable(env.MAX_DEPTH, env.MAX_BREADTH, estimateFigures(env));
}

/** What a depth × breadth choice may be, and what each choice costs: for the wizard and the re-run form. */
export interface ResearchLimits {
  maxDepth: number;
  maxBreadth: number;
  maxQuestions: number;
  /** Time, token and cost ranges by choice: `estimates[depth - 1][breadth - 1]`. */
  estimates: EstimateRanges[][];
}

/** The limits from the environment; the defaults when it is incomplete (the banner names what is missing). */
export function researchLimits(): ResearchLimits {
  let env: Env;
  try {
    env = getEnv();
  } catch {
    env = loadEnv({}).env;
  }
  return { maxDepth: env.MAX_DEPTH, maxBreadth: env.MAX_BREADTH, maxQuestions: env.MAX_QUESTIONS, estimates: wizardEstimates(env) };
}
