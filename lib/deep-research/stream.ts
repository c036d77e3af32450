// The shapes of a conversation's stream (GET /api/deep-research/conversations/:id/stream, built at the
// HTTP edge in lib/api/deep-research-stream.ts): the snapshot, then typed data parts (state, message,
// task, phase, discovery, run) newer than it, until the loop has ended.
import type { UIMessage } from "ai";
import type { RunEvent } from "../events/bus";
import type { DeepResearchEventType } from "./events";
import type { ConversationSnapshot } from "./snapshot";

type Meta = { seq: number; at: number };
export type DeepResearchDataParts = {
  snapshot: { seq: number; conversation: ConversationSnapshot };
} & Record<DeepResearchEventType, Record<string, unknown> & Meta>;
export type DeepResearchUIMessage = UIMessage<never, DeepResearchDataParts>;

export type DrEvent = RunEvent & { type: DeepResearchEventType; data: Record<string, unknown> };

/** A part's id: a later part with the same id replaces the earlier one in the client's message. */
export function partId(e: DrEvent): string | undefined {
  if (e.type === "task" || e.type === "message" || e.type === "discovery") return `${e.type}:${String(e.data.id)}`;
  if (e.type === "state" || e.type === "run") return e.type;
  return undefined;
}

/** The loop's last event: the run guard released. */
export const isFinalDrEvent = (e: RunEvent) => e.type === "run" && (e.data as { isRunning?: boolean }).isRunning === false;
