// Servers that refuse a prompt longer than their context window, with a 400 that names it: vLLM and
// OpenAI ("This model's maximum context length is 8192 tokens…"), llama.cpp's server
// (exceed_context_size_error with "n_ctx"), LM Studio ("…loaded with context length of only 4096
// tokens"), TGI ("`inputs` tokens + `max_new_tokens` must be <= 4096"). A local model served with an 8k
// or 32k window meets Quarry's default budgets (a report's findings up to REPORT_TOKEN_BUDGET, 60,000
// tokens) and its report failed at the end of the research. The window a refusal names (or
// LLM_CONTEXT_TOKENS) is remembered per server and model for the life of the process, and every prompt
// budget is held to a share of it (fitToContext); the big prompts (a report, a page read) are built
// again once after such a refusal (withContextRetry). (Servers that cut a prompt without a word, as
// Ollama does: ./context-window.ts.)
import { getEnv, type Env } from "../env";
import { serverKey } from "./server-key";

/** The share of the window one budgeted part of a prompt may take: the rest is the instructions, the other parts and the reply. */
const SHARE = 0.4;

const windows = ((globalThis as { quarryContextWindows?: Map<string, number> }).quarryContextWindows ??= new Map());

const PATTERNS = [
  /maximum context length is (\d+)/i,
  /"n_ctx"\s*:\s*(\d+)/,
  /context length of only (\d+)/i,
  /inputs`? tokens \+ `?max_new_tokens`? must be <= (\d+)/i,
  /\d+ tokens > (\d+) maximum/i,
];

/** The context window (tokens) a server's refusal of a prompt names, or undefined for any other error. */
export function contextLimitOf(error: unknown): number | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const { statusCode, responseBody } = e as Error & { statusCode?: number; responseBody?: string };
    if (statusCode !== undefined && statusCode !== 400 && statusCode !== 413 && statusCode !== 422) continue;
    const text = `${e.message} ${responseBody ?? ""}`;
    for (const pattern of PATTERNS) {
      const n = Number(pattern.exec(text)?.[1]);
      if (n >= 256) return n;
    }
  }
  return undefined;
}

/** Remembers the window a refusal names (the smallest seen); true when it was such a refusal. */
export function noteContextLimit(error: unknown): boolean {
  const limit = contextLimitOf(error);
  if (limit === undefined) return false;
  const key = serverKey();
  const known = windows.get(key);
  if (known === undefined || limit < known) {
    windows.set(key, limit);
    console.warn(`[quarry] the LLM server refused a prompt longer than its context window of ${limit} tokens: prompts are held to it from now on (set LLM_CONTEXT_TOKENS to say so at start, or serve the model with a larger context).`);
  }
  return true;
}

/** The model's context window in tokens, where known: LLM_CONTEXT_TOKENS, or what the server's refusals named. */
export function contextWindow(): number | undefined {
  const learned = windows.get(serverKey());
  const configured = getEnv().LLM_CONTEXT_TOKENS || undefined;
  return learned !== undefined && configured !== undefined ? Math.min(learned, configured) : (learned ?? configured);
}

/** A prompt part's token budget on this server: the configured one, held to a share of a known smaller window. */
export function fitToContext(budgetTokens: number): number {
  const window = contextWindow();
  return window === undefined ? budgetTokens : Math.max(200, Math.min(budgetTokens, Math.floor(window * SHARE)));
}

/** The configured prompt budgets, each read through fitToContext by the runs (RunContext, DrContext: `budgetOf`). */
export type PromptBudget = "PAGE_TOKEN_BUDGET" | "CONTEXT_TOKEN_BUDGET" | "REPORT_TOKEN_BUDGET";

/** A configured prompt budget, held to a share of the model's context window where it is known. */
export function promptBudget(env: Pick<Env, PromptBudget>, name: PromptBudget): number {
  return fitToContext(env[name]);
}

/**
 * `build` (which reads its budgets through fitToContext), built again once when the server refused its
 * prompt as longer than its context window: the window is known then, and the prompt is held to it.
 */
export async function withContextRetry<T>(build: () => Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (!noteContextLimit(error)) throw error;
    return build();
  }
}
