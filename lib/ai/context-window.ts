// Servers that cut a prompt to their context window without saying so — Ollama does, at its context
// length (num_ctx; 2,048 or 4,096 tokens by default), dropping the start of the prompt and the system
// prompt with it — and answer what was left: a page read without its objective, a report without its
// instructions. The only trace is the usage the server reports: far fewer prompt tokens than were sent.
// Each reply's count is compared with an estimate of what was sent (about 4 characters a token, which
// tokenizers rarely beat by much; CJK text and code cost more tokens, never fewer): a prompt of at least
// 2,000 estimated tokens counted at under half of them was cut. Noted per process: the log says so
// once, and the banner tells signed-in users what to set, until a prompt longer than the cut ones is
// counted whole.

export interface PromptCut {
  /** The most tokens the server counted for a cut prompt, and the largest prompt (estimated) it cut. */
  counted: number;
  estimated: number;
  /** A context that would hold that prompt and a reply. */
  suggested: number;
}

/** Prompts shorter than this (estimated tokens) are never judged: their counts are too close to call. */
const MIN_ESTIMATED = 2_000;
/** Counted under this share of the estimate: cut. */
const CUT_SHARE = 0.5;
/** Room for a reply in the suggested context. */
const REPLY_ROOM = 4_096;

// On globalThis: the calls are made by the route handlers' and the runs' copies of this module, the
// banner is rendered by the pages' (Next.js bundles each layer on its own).
const state = ((globalThis as { quarryPromptCut?: { cut: PromptCut | null; warned: boolean } }).quarryPromptCut ??= { cut: null, warned: false });

/** A reply's prompt tokens as the server counted them, against the characters that were sent. */
export function notePromptTokens(sentChars: number, counted: number | undefined): void {
  const estimated = Math.round(sentChars / 4);
  if (!counted || estimated < MIN_ESTIMATED) return;
  if (counted >= CUT_SHARE * estimated) {
    // A prompt longer than the cut ones were counted at, counted whole: the server's context was made larger.
    if (state.cut && counted > state.cut.counted * 1.2) state.cut = null;
    return;
  }
  const first = !state.warned;
  state.warned = true;
  const largest = Math.max(estimated, state.cut?.estimated ?? 0);
  const cut = { counted: Math.max(counted, state.cut?.counted ?? 0), estimated: largest, suggested: Math.max(8_192, 2 ** Math.ceil(Math.log2(largest + REPLY_ROOM))) };
  state.cut = cut;
  if (first) {
    console.warn(
      `[quarry] the LLM server counted ${counted} prompt tokens for a prompt of about ${estimated}: it cuts prompts to its context window, and what it cuts is never read (Ollama: set OLLAMA_CONTEXT_LENGTH or the model's num_ctx to at least ${cut.suggested}).`,
    );
  }
}

/** The prompts this process saw cut, if any. */
export function promptCut(): PromptCut | null {
  return state.cut;
}
