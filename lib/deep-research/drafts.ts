// The replies being written, by conversation: the snapshot of a conversation (a page loaded or
// reloaded mid-reply) shows the text so far, and the stream's reply-delta parts go on from it.
//
// In this process the draft is a map entry. With Redis (queue mode: the reply is written by a worker,
// the page is served by a web process) it is also a Redis string, "replyToId\n" + the text, appended
// to as each piece is emitted: a piece is in the draft before its reply-delta event reaches the run's
// log (the bus appends events in batches, after this), so a snapshot taken after reading the log's head
// has every piece up to that head. A draft ahead of the head is harmless: the client adds only the
// rest of a piece the draft already holds. A worker that dies mid-reply leaves its key to expire; the
// step tried again starts it afresh.
import { errorMessage } from "../errors";
import { redis, redisEnabled, redisKey } from "../redis";

/** A reply being written: the start message it answers, and its text so far. */
export interface ReplyDraft {
  replyToId: string;
  text: string;
}

const drafts = new Map<string, ReplyDraft>();

/** How long a draft outlives the last write to it in Redis (a reply that takes longer is written on: see appendDraft). */
const DRAFT_TTL_S = 3_600;

const keyOf = (conversationId: string) => redisKey(`dr-draft:${conversationId}`);

/** A Redis write of a draft: never in the reply's way (a failed one leaves a page loaded meanwhile without the draft). */
function shared(write: (key: string) => Promise<unknown>, conversationId: string): void {
  if (!redisEnabled()) return;
  write(keyOf(conversationId)).catch((error: unknown) => console.error(`[quarry] conversation ${conversationId}: could not share the reply's draft: ${errorMessage(error)}`));
}

/** A reply's draft, empty (a step tried again starts over); its text grows with appendDraft. */
export function startDraft(conversationId: string, replyToId: string): ReplyDraft {
  const draft = { replyToId, text: "" };
  drafts.set(conversationId, draft);
  shared((key) => redis().set(key, `${replyToId}\n`, "EX", DRAFT_TTL_S), conversationId);
  return draft;
}

/** A piece of the reply, added before its reply-delta event is logged. */
export function appendDraft(conversationId: string, draft: ReplyDraft, delta: string): void {
  draft.text += delta;
  shared((key) => redis().multi().append(key, delta).expire(key, DRAFT_TTL_S).exec(), conversationId);
}

/** The reply was saved, or its step failed. */
export function endDraft(conversationId: string): void {
  drafts.delete(conversationId);
  shared((key) => redis().del(key), conversationId);
}

/** The reply being written now, in this process or (with Redis) in any, if any (a copy). */
export async function replyDraft(conversationId: string): Promise<ReplyDraft | null> {
  const draft = drafts.get(conversationId);
  if (draft) return { ...draft };
  if (!redisEnabled()) return null;
  const stored = await redis().get(keyOf(conversationId));
  if (stored === null) return null;
  const at = stored.indexOf("\n");
  return at === -1 ? null : { replyToId: stored.slice(0, at), text: stored.slice(at + 1) };
}
