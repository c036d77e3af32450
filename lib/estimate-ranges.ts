// The time, token and cost ranges of a depth × breadth choice, from the tree's call counts
// (lib/client/estimate.ts) and per-call figures the operator can set (lib/env.ts, ESTIMATE_*).
// Pure arithmetic: the server fills in the figures and sends the browser only the resulting numbers.
import { estimateResearch, MAX_PAGES_PER_QUERY } from "./client/estimate";

export interface EstimateFigures {
  /** Typical prompt tokens of one planning, page-analysis or branch-summary call. */
  promptTokensPerCall: number;
  /** Typical completion tokens of one such call. */
  completionTokensPerCall: number;
  /** The report call's prompt at most (REPORT_TOKEN_BUDGET: the findings are summarised to fit). */
  reportPromptTokensMax: number;
  /** Typical completion tokens of the report. */
  reportCompletionTokens: number;
  /** Typical wall time of one planning / analysis / summary call, in seconds. */
  secondsPerCall: number;
  /** Typical wall time of the report call (it streams a long answer), in seconds. */
  reportSeconds: number;
  /** LLM calls at once across the run (LLM_CONCURRENCY). */
  llmConcurrency: number;
  /** Page analyses at once within one query (ANALYZE_CONCURRENCY_PER_QUERY). */
  analyzeConcurrency: number;
  /** US dollars per million prompt / completion tokens, when both are configured. */
  price: { inputPerMTok: number; outputPerMTok: number } | null;
}

export interface Range {
  low: number;
  high: number;
}

export interface EstimateRanges {
  /** The citation verification's LLM calls after the report (lib/verification), counted in tokens, seconds and cost too. */
  verificationCalls: Range;
  /** Prompt + completion tokens. */
  tokens: Range;
  seconds: Range;
  /** US dollars; null when no price is configured. */
  cost: Range | null;
}

/**
 * The verification's calls (lib/verification/verify-report.ts). Low: the report cites one source
 * and every sentence holds: one verifier call and the uncited-sentence check. High: every page read
 * is a cited source, each with one batch of sentences (12) asked, then asked once more for the
 * sentences it skipped; one unsupported sentence, corrected in that same call, has its rewrite judged
 * again the same way (asked, and asked once more); plus the uncited-sentence check: 4 calls a source + 1.
 */
export function verificationCalls(maxPages: number): Range {
  return { low: 2, high: 4 * maxPages + 1 };
}

/** Calls of the verification one after another at most: pass 1 and its second ask, pass 2 and its second ask (the repair makes no call of its own). */
const VERIFICATION_PATH = 4;

/**
 * Low: only the calls that always happen (no page found anything to analyse). High: every query
 * reads its 7 pages and the findings need a summary per root branch, all replies valid the first
 * time (repairs are the estimate's separate hard ceiling of calls).
 *
 * Time is LLM time only, along the tree: a level waits for its parent's planning call and, at worst,
 * its parent's page analyses one after another (ANALYZE_CONCURRENCY_PER_QUERY at once). The low end is
 * the longer of that path and the calls spread over LLM_CONCURRENCY; the high end adds both (the
 * list-scheduling bound: work ÷ concurrency + critical path).
 */
export function estimateRanges(depth: number, breadth: number, f: EstimateFigures): EstimateRanges {
  const e = estimateResearch(depth, breadth);
  const summaries = e.maxLlmCalls - e.minLlmCalls - e.maxPages;
  const verification = verificationCalls(e.maxPages);
  // Every call but the report is an ordinary call (the questions call included: the research pays
  // for it); the report's prompt is an ordinary call's at the low end, the report budget at the high.
  // The verification's calls are ordinary calls (a source's window of text, a short verdict).
  const prompt = {
    low: (e.minLlmCalls + verification.low) * f.promptTokensPerCall,
    high: (e.maxLlmCalls - 1 + verification.high) * f.promptTokensPerCall + f.reportPromptTokensMax,
  };
  const completion = {
    low: (e.minLlmCalls - 1 + verification.low) * f.completionTokensPerCall + f.reportCompletionTokens,
    high: (e.maxLlmCalls - 1 + verification.high) * f.completionTokensPerCall + f.reportCompletionTokens,
  };

  const levels = e.levels.length;
  const analysesInARow = Math.ceil(MAX_PAGES_PER_QUERY / Math.max(1, f.analyzeConcurrency));
  // The verification runs after the report: its calls at once (low), or its four in a row (high).
  const pathLow = levels * f.secondsPerCall + f.reportSeconds + f.secondsPerCall;
  const pathHigh = levels * (1 + analysesInARow) * f.secondsPerCall + (summaries > 0 ? f.secondsPerCall : 0) + f.reportSeconds + VERIFICATION_PATH * f.secondsPerCall;
  // The questions were asked before the research starts; the report is on the path.
  const workLow = (e.minLlmCalls - 2) * f.secondsPerCall;
  const workHigh = (e.maxLlmCalls - 2 + verification.high) * f.secondsPerCall;
  const concurrency = Math.max(1, f.llmConcurrency);
  const seconds = {
    low: Math.max(pathLow, workLow / concurrency + f.reportSeconds + f.secondsPerCall),
    high: pathHigh + workHigh / concurrency,
  };

  const cost = f.price
    ? {
        low: (prompt.low * f.price.inputPerMTok + completion.low * f.price.outputPerMTok) / 1_000_000,
        high: (prompt.high * f.price.inputPerMTok + completion.high * f.price.outputPerMTok) / 1_000_000,
      }
    : null;
  return {
    verificationCalls: verification,
    tokens: { low: prompt.low + completion.low, high: prompt.high + completion.high },
    seconds: { low: Math.round(seconds.low), high: Math.round(seconds.high) },
    cost,
  };
}

/** Ranges for every choice the wizard offers: `table[depth - 1][breadth - 1]`. */
export function estimateRangeTable(maxDepth: number, maxBreadth: number, f: EstimateFigures): EstimateRanges[][] {
  return Array.from({ length: maxDepth }, (_, d) => Array.from({ length: maxBreadth }, (_, b) => estimateRanges(d + 1, b + 1, f)));
}
