// The events of a Deep Research run, on the run platform's bus: one topic per conversation, typed
// data per kind (the stream writes them as data parts of the same names).
import type { RunTopic } from "../events/bus";

export const drTopic = (conversationId: string): RunTopic => ({ kind: "deep-research", subjectId: conversationId });

/**
 * `reply-delta`: text of the reply being written, as it streams ({ replyToId, offset, delta }: `offset`
 * is the length of the reply before it, 0 for the first piece of an attempt, so that a client starts
 * afresh when the step is tried again). Transient: the saved reply (a `message`) replaces it.
 */
export type DeepResearchEventType = "state" | "message" | "task" | "phase" | "discovery" | "run" | "reply-delta";

/** The data of a `reply-delta` event. */
export interface ReplyDelta {
  /** The start message the reply answers. */
  replyToId: string;
  offset: number;
  delta: string;
  /** With an attempt's first piece (offset 0): why the reply is written again (it cited nothing, another language). */
  note?: string;
}
