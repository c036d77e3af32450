// Servers that cut a prompt to their context window without saying so — Ollama does, at its context
// length (num_ctx; 2,048 or 4,096 tokens by default), dropping the start of the prompt and the system
// prompt with it — and answer what was left: a page read without its objective, a report without its
// instructions. The only trace is the usage the server reports: far fewer prompt tokens than were sent.
// Each reply's count is compared with an estimate of what was sent (about 4 characters a token, which
// tokenizers rarely beat by much; CJK text and code cost more tokens, never fewer): a prompt of at least
// 1,200 estimated tokens counted at under half of them was cut. The log says so once per process, and
// the banner tells signed-in users what to set, until a prompt longer than the cut ones is counted
// whole. With Redis (queue mode: the workers make the calls, the web process renders the banner) the
// notice is shared there, for a day after the last cut.
import { errorMessage } from "../errors";
import { redis, redisEnabled, redisKey, redisReady } from "../redis";
import { estimatedTokens } from "./usage";

export interface PromptCut {
  /** The most tokens the server counted for a cut prompt, and the largest prompt (estimated) it cut. */
  counted: number;
  estimated: number;
  /** A context that would hold that prompt and a reply. */
  suggested: number;
}

/** Prompts shorter than this (estimated tokens) are never judged: their counts are too close to call. */
const MIN_ESTIMATED = 1_200;
/**
 * Counts under this are no cut: a server cuts to about half its window, and none is served with less
 * than 1,024 tokens; a count so low is a server counting only what it did not have cached.
 */
const MIN_CUT = 512;
/** Counted under this share of the estimate: cut. */
const CUT_SHARE = 0.5;
/** Room for a reply in the suggested context. */
const REPLY_ROOM = 4_096;
/** A prompt counted whole at this much more than a cut one was counted at: the context was made larger. */
const GROWN = 1.2;

// On globalThis: the calls are made by the route handlers' and the runs' copies of this module, the
// banner is rendered by the pages' (Next.js bundles each layer on its own).
const state = ((globalThis as { quarryPromptCut?: { cut: PromptCut | null; warned: boolean; sharedAt: number } }).quarryPromptCut ??= { cut: null, warned: false, sharedAt: 0 });

const SHARED_TTL_S = 86_400;
/** A notice unchanged is shared again this often, so that it lasts as long as the cuts do. */
const RESHARE_MS = 3_600_000;
const sharedKey = () => redisKey("llm:prompt-cut");

/** The notice, shared with the fleet (never in a call's way). */
function share(cut: PromptCut | null): void {
  if (!redisEnabled()) return;
  const write = cut ? redis().set(sharedKey(), JSON.stringify(cut), "EX", SHARED_TTL_S) : redis().del(sharedKey());
  write.catch((error: unknown) => console.error(`[quarry] could not share the prompt-cut notice: ${errorMessage(error)}`));
}

/** How often a process that saw no cut looks whether a whole count clears another's notice. */
const CLEAR_CHECK_MS = 60_000;
let lastClearCheck = 0;

/** A prompt counted whole at more than the fleet's notice says the server counts: the notice goes (another process saw the cut). */
function clearShared(counted: number): void {
  if (!redisEnabled() || Date.now() - lastClearCheck < CLEAR_CHECK_MS) return;
  lastClearCheck = Date.now();
  const check = async () => {
    const raw = await redis().get(sharedKey());
    if (raw && counted > (JSON.parse(raw) as PromptCut).counted * GROWN) await redis().del(sharedKey());
  };
  check().catch((error: unknown) => console.error(`[quarry] could not check the prompt-cut notice: ${errorMessage(error)}`));
}

/**
 * A reply's prompt tokens as the server counted them, against the characters that were sent: the
 * tokens counted when the prompt was cut (the caller sends it again held to them), else undefined.
 */
export function notePromptTokens(sentChars: number, counted: number | undefined): number | undefined {
  const estimated = estimatedTokens(sentChars);
  if (!counted || estimated < MIN_ESTIMATED || counted < MIN_CUT) return undefined;
  if (counted >= CUT_SHARE * estimated) {
    // A prompt longer than the cut ones were counted at, counted whole: the server's context was made larger.
    if (state.cut && counted > state.cut.counted * GROWN) {
      state.cut = null;
      share(null);
    } else clearShared(counted);
    return undefined;
  }
  const first = !state.warned;
  state.warned = true;
  const before = state.cut;
  const largest = Math.max(estimated, before?.estimated ?? 0);
  const cut = { counted: Math.max(counted, before?.counted ?? 0), estimated: largest, suggested: Math.max(8_192, 2 ** Math.ceil(Math.log2(largest + REPLY_ROOM))) };
  state.cut = cut;
  // Every call is cut while the server stays as it is: the fleet is told what is new, and now and then that it goes on.
  if (cut.counted !== before?.counted || cut.estimated !== before.estimated || Date.now() - state.sharedAt > RESHARE_MS) {
    state.sharedAt = Date.now();
    share(cut);
  }
  if (first) {
    console.warn(
      `[quarry] the LLM server counted ${counted} prompt tokens for a prompt of about ${estimated}: it cuts prompts to its context window, and what it cuts is never read (Ollama: set OLLAMA_CONTEXT_LENGTH or the model's num_ctx to at least ${cut.suggested}).`,
    );
  }
  return counted;
}

/** The prompts any process saw cut (with Redis, the fleet's notice; else this process's), if any. */
export async function promptCutAnywhere(): Promise<PromptCut | null> {
  if (!redisEnabled()) return state.cut;
  const connection = redis();
  // A Redis that does not answer keeps no page waiting: this process's own notice then.
  if (!(await redisReady(connection, 200))) return state.cut;
  const raw = await connection.get(sharedKey()).catch(() => null);
  return raw ? (JSON.parse(raw) as PromptCut) : null;
}
