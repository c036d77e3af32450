// Room to think. A capped call (an answer's token budget caps each of its replies) to a reasoning model can
// come back with nothing to read: OpenAI's o-series count their hidden reasoning in max_completion_tokens,
// vLLM's and llama.cpp's reasoning models count theirs in max_tokens, and a model that thinks past the cap
// ends with finish reason "length", the whole cap spent and no answer. Asked again with the same cap, it
// thinks as long again. Such a reply teaches the server (and model) to be given room: from then on the
// cap of each capped call is raised by this many tokens (8,000; doubled at each such reply again, up to
// 32,000), within what the budget has left (lib/answer/budget.ts).
import { serverKey } from "./server-key";
import type { TokenCount } from "./usage";

const FIRST_ROOM = 8_000;
const MAX_ROOM = 32_000;

const rooms = new Map<string, number>();

/** The output tokens a capped call is given beyond its cap, for the configured server and model. */
export function reasoningRoom(): number {
  return rooms.get(serverKey()) ?? 0;
}

/**
 * Whether the reply is a capped call's cap spent thinking ("length", the cap used, nothing visible);
 * if so the server's room grows, and the call is to be sent again as it was.
 */
export function spentThinking(reply: { finishReason: string; usage: TokenCount }, cap: number | undefined, visible: string): boolean {
  if (cap === undefined || reply.finishReason !== "length" || visible.trim() || reply.usage.completionTokens < cap * 0.9) return false;
  const key = serverKey();
  const room = rooms.get(key) ?? 0;
  if (room >= MAX_ROOM) return false;
  const next = room === 0 ? FIRST_ROOM : Math.min(MAX_ROOM, room * 2);
  rooms.set(key, next);
  console.warn(`[quarry] the model spent a reply's whole limit (${cap} tokens) thinking, with nothing written: capped calls are given ${next} tokens more from now on.`);
  return true;
}
