// Servers that refuse a prompt longer than their context window, with a 400 that names it: vLLM and
// OpenAI ("This model's maximum context length is 8192 tokens…"), llama.cpp's server
// (exceed_context_size_error with "n_ctx"), LM Studio ("…loaded with context length of only 4096
// tokens"), TGI ("`inputs` tokens + `max_new_tokens` must be <= 4096"). A local model served with an 8k
// or 32k window meets Quarry's default budgets (a report's findings up to REPORT_TOKEN_BUDGET, 60,000
// tokens) and its report failed at the end of the research. The window a refusal names (or
// LLM_CONTEXT_TOKENS) is remembered per server and model for the life of the process, and every prompt
// budget is held to a share of it (fitToContext); the big prompts (a report, a page read) are built
// again once after such a refusal (withContextRetry). A server that cuts a prompt without a word, as
// Ollama does (./context-window.ts), teaches its window too: what it counted of the cut prompt, a
// window no prompt that fits is cut in. Every call that is not streamed is held to a known window as
// it goes (heldToWindow), and one the server cut or refused is sent again held to it (lib/ai/call.ts).
import { getEnv, type Env } from "../env";
import { CHARS_PER_TOKEN, estimatedTokens } from "./usage";
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

/**
 * A refusal of a prompt as longer than the window that names no window (Ollama's own, with its context
 * shift off: "the prompt is longer than the context length currently available to the model").
 */
export function refusesLengthUnnamed(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const { statusCode, responseBody } = e as Error & { statusCode?: number; responseBody?: string };
    if (statusCode !== 400 && statusCode !== 413) continue;
    if (/longer than the context length|exceeds the (?:available )?context|context length exceeded|context_length_exceeded/i.test(`${e.message} ${responseBody ?? ""}`)) return true;
  }
  return false;
}

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
  learnContextWindow(limit);
  return true;
}

/** Remembers a window the server showed (the smallest seen), and says so once per window. */
export function learnContextWindow(limit: number, how = "refused a prompt longer than its context window of"): void {
  const key = serverKey();
  const known = windows.get(key);
  if (known === undefined || limit < known) {
    windows.set(key, limit);
    console.warn(`[quarry] the LLM server ${how} ${limit} tokens: prompts are held to it from now on (set LLM_CONTEXT_TOKENS to say so at start, or serve the model with a larger context).`);
  }
}

/** The model's context window in tokens, where known: LLM_CONTEXT_TOKENS, or what the server's refusals named. */
export function contextWindow(): number | undefined {
  const key = serverKey();
  let learned = windows.get(key);
  const cut = cutWindows.get(key);
  if (cut && Date.now() - cut.at < CUT_WINDOW_MS) learned = learned === undefined ? cut.window : Math.min(learned, cut.window);
  const configured = getEnv().LLM_CONTEXT_TOKENS || undefined;
  return learned !== undefined && configured !== undefined ? Math.min(learned, configured) : (learned ?? configured);
}

/** A prompt part's token budget on this server: the configured one, held to a share of a known smaller window. */
export function fitToContext(budgetTokens: number): number {
  const window = contextWindow();
  return window === undefined ? budgetTokens : Math.max(200, Math.min(budgetTokens, Math.floor(window * SHARE)));
}

/**
 * Whether a budget read through fitToContext is what the known context window holds it to (its share of
 * the window, below the configured budget): what is shown within it is less than Quarry would show.
 */
export function heldByWindow(budgetTokens: number): boolean {
  const window = contextWindow();
  return window !== undefined && budgetTokens === Math.max(200, Math.floor(window * SHARE));
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

/** The share of a known window left for a reply: what a prompt held to it leaves free. */
const REPLY_SHARE = 0.25;

/** Per server, the count of the last prompt it seemed to cut (see learnCutWindow). */
const suspectedCuts = ((globalThis as { quarrySuspectedCuts?: Map<string, number> }).quarrySuspectedCuts ??= new Map());
/**
 * Per server, the window its cuts showed, and when. Held to for CUT_WINDOW_MS after the last cut that
 * showed it, then no more: a server made larger (OLLAMA_CONTEXT_LENGTH raised) is sent whole prompts
 * again without a restart, and one that is not cuts two of them again (each sent again held to it).
 */
const cutWindows = ((globalThis as { quarryCutWindows?: Map<string, { window: number; at: number }> }).quarryCutWindows ??= new Map());
const CUT_WINDOW_MS = 10 * 60_000;

/**
 * The window a server that seemed to cut a prompt to `counted` tokens showed; remembered for every
 * later call once it is sure. Ollama and llama.cpp's server cut to about half their window (their
 * context shift keeps the first tokens and the end, half the rest freed for the reply): a prompt of
 * `counted` tokens fits, with that half for its reply, so `counted` is the room a prompt is held to,
 * the reply's share above it. Their cut is to the same count every time: two cuts counted alike (within
 * 2%) make it sure. One alone may be a server that counts only the prompt tokens it did not have cached
 * (Ollama 0.30 did): the call it came from is sent again held to it, and nothing else changes.
 * `held`: the window the cut prompt was already held to (its estimate fell short: a fifth less, sure).
 * Returns the window for the call to be sent again within.
 */
export function learnCutWindow(counted: number, held: number | undefined): number {
  const key = serverKey();
  const last = suspectedCuts.get(key);
  suspectedCuts.set(key, counted);
  const window = Math.floor(held !== undefined && held * (1 - REPLY_SHARE) <= counted ? held * 0.8 : counted / (1 - REPLY_SHARE));
  if (held !== undefined || (last !== undefined && Math.abs(last - counted) <= Math.max(2, counted * 0.02))) {
    const known = cutWindows.get(key);
    if (!known || Date.now() - known.at >= CUT_WINDOW_MS || window < known.window) {
      console.warn(`[quarry] the LLM server cut prompts without a word (its context window is smaller than they are): prompts are held to ${window} tokens for the next ${CUT_WINDOW_MS / 60_000} minutes (serve the model with a larger context).`);
    }
    cutWindows.set(key, { window: known && Date.now() - known.at < CUT_WINDOW_MS ? Math.min(known.window, window) : window, at: Date.now() });
  }
  return window;
}
const TRIMMED = "\n[… cut to fit the model's context window …]\n";
/** A tagged part of a prompt (`<page …>…</page>`: lib/ai/prompts.ts's tag): its content is what is trimmed first. */
const TAGGED = /<([a-z][a-z0-9_-]*)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/g;

/**
 * A cut from `head` to `tail` moved out to the nearest line ends, else sentence ends, within the span and
 * a few hundred characters (the cut only grows): a line of findings or a source's URL is kept whole or
 * left out, never cut into, so that no handle or URL the model may cite is half there.
 */
function atBoundaries(text: string, span: { start: number; end: number }, head: number, tail: number): { head: number; tail: number } {
  const reach = 400;
  // The kept head ends before a line's break or after a sentence's period; the kept tail begins a line or a sentence.
  // Within reach, and never giving up more than half of what the head or the tail was to keep.
  const back = (mark: string) => {
    const at = text.lastIndexOf(mark, head - 1);
    return at >= span.start + (head - span.start) / 2 && head - at <= reach ? (mark === "\n" ? at : at + 1) : undefined;
  };
  const forward = (mark: string) => {
    const at = text.indexOf(mark, tail);
    return at !== -1 && at < span.end - (span.end - tail) / 2 && at - tail <= reach ? at + mark.length : undefined;
  };
  return { head: back("\n") ?? back(". ") ?? head, tail: forward("\n") ?? forward(". ") ?? tail };
}

/**
 * A call's turns held to the server's known context window (none known: as they are): the longest
 * turn's tagged parts (a page, the findings), the largest first, or the turn's middle when it has none,
 * cut by what the whole exceeds, each part's start and end kept, and the turn's text around them (the
 * objective, the question, the instructions); a part is cut at a line's end where one is near. `extraTokens`: what
 * else goes out (a response format's schema). The budgets each prompt is built to come first
 * (fitToContext); this is the net under every call, a prompt built before the window was known included.
 */
export function heldToWindow<T extends { content: string }>(system: string, turns: T[], extraTokens = 0, window = contextWindow()): T[] {
  if (window === undefined) return turns;
  const room = Math.floor(window * (1 - REPLY_SHARE));
  const sentChars = turns.reduce((n, t) => n + t.content.length, system.length);
  const excessChars = (estimatedTokens(sentChars) + extraTokens - room) * CHARS_PER_TOKEN;
  if (excessChars <= 0) return turns;
  let longest = 0;
  turns.forEach((t, i) => t.content.length > turns[longest].content.length && (longest = i));
  const text = turns[longest].content;
  const parts = [...text.matchAll(TAGGED)].map((m) => {
    const end = m.index + m[0].length - `</${m[1]}>`.length;
    return { start: end - m[2].length, end };
  });
  // The largest parts first, each down to what a question or an objective takes (kept whole); a turn of
  // no parts, its middle. What cannot be cut so goes out as it is: a prompt without its question is no
  // prompt, and the window was learned with room to spare (a server cuts what is over its own).
  const spans = parts.length > 0 ? parts.sort((a, b) => b.end - b.start - (a.end - a.start)) : [{ start: 0, end: text.length }];
  const floor = parts.length > 0 ? KEPT_OF_A_PART : 0;
  const cuts: { head: number; tail: number }[] = [];
  let need = excessChars;
  for (const span of spans) {
    if (need <= 0) break;
    const length = span.end - span.start;
    const cuttable = length - floor - TRIMMED.length;
    if (cuttable <= 0) continue;
    const keep = length - Math.min(need, cuttable) - TRIMMED.length;
    const cut = atBoundaries(text, span, span.start + Math.ceil(keep * 0.6), span.end - Math.floor(keep * 0.4));
    cuts.push(cut);
    need -= cut.tail - cut.head - TRIMMED.length;
  }
  if (cuts.length === 0) return turns;
  let content = text;
  for (const { head, tail } of cuts.sort((a, b) => b.head - a.head)) content = `${content.slice(0, head)}${TRIMMED}${content.slice(tail)}`;
  const held = [...turns];
  held[longest] = { ...turns[longest], content };
  return held;
}

/** What a cut leaves of each tagged part at least (characters): a question, an objective, a source's first lines. */
const KEPT_OF_A_PART = 400;
