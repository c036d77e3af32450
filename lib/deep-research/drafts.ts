// The replies being written in this process, by conversation: the snapshot of a conversation (a page
// loaded or reloaded mid-reply) shows the text so far, and the stream's reply-delta parts go on from it.
// A reply written in another process (queue mode) shows from the next reply on.
/** A reply being written: the start message it answers, and its text so far. */
export interface ReplyDraft {
  replyToId: string;
  text: string;
}

const drafts = new Map<string, ReplyDraft>();

/** A reply's draft, empty (a step tried again starts over); its text grows as the reply streams. */
export function startDraft(conversationId: string, replyToId: string): ReplyDraft {
  const draft = { replyToId, text: "" };
  drafts.set(conversationId, draft);
  return draft;
}

/** The reply was saved, or its step failed. */
export function endDraft(conversationId: string): void {
  drafts.delete(conversationId);
}

/** The reply being written in this process now, if any (a copy). */
export function replyDraft(conversationId: string): ReplyDraft | null {
  const draft = drafts.get(conversationId);
  return draft ? { ...draft } : null;
}
