// A conversation's progress as an AI SDK UI message stream (GET /api/deep-research/conversations/:id/stream):
// the snapshot with the sequence number it is current to, then typed data parts (state, message,
// task, phase, discovery, run) newer than it (lib/runs/live.ts), until the loop has ended. A late
// or reconnecting client misses nothing and sees nothing twice.
import { createUIMessageStream, type UIMessage } from "ai";
import { AppError } from "../errors";
import type { RunEvent } from "../events/bus";
import { followRun } from "../runs/live";
import { drTopic, type DeepResearchEventType } from "./events";
import { conversationSnapshot, type ConversationSnapshot } from "./snapshot";

type Meta = { seq: number; at: number };
export type DeepResearchDataParts = {
  snapshot: { seq: number; conversation: ConversationSnapshot };
} & Record<DeepResearchEventType, Record<string, unknown> & Meta>;
export type DeepResearchUIMessage = UIMessage<never, DeepResearchDataParts>;

type DrEvent = RunEvent & { type: DeepResearchEventType; data: Record<string, unknown> };

/** A part's id: a later part with the same id replaces the earlier one in the client's message. */
function partId(e: DrEvent): string | undefined {
  if (e.type === "task" || e.type === "message" || e.type === "discovery") return `${e.type}:${String(e.data.id)}`;
  if (e.type === "state" || e.type === "run") return e.type;
  return undefined;
}

export async function conversationStream({ id, userId, signal }: { id: string; userId: string; signal: AbortSignal }) {
  const followed = await followRun<ConversationSnapshot, DrEvent>(drTopic(id), () => conversationSnapshot({ id, userId }));
  if (!followed) throw new AppError("not_found:conversation", "Conversation not found");
  const { seq, snapshot } = followed;
  return createUIMessageStream<DeepResearchUIMessage>({
    execute: async ({ writer }) => {
      writer.write({ type: "start" });
      writer.write({ type: "data-snapshot", id: "snapshot", data: { seq, conversation: snapshot } });
      let done = !snapshot.deepResearchRun.isRunning;
      if (done) followed.stop();
      for await (const e of followed.events(signal)) {
        const data = { ...e.data, seq: e.seq, at: e.at };
        const pid = partId(e);
        writer.write({ type: `data-${e.type}`, ...(pid ? { id: pid } : {}), data } as never);
        if (e.type === "run" && e.data.isRunning === false) {
          done = true;
          followed.stop();
        }
      }
      if (done) writer.write({ type: "finish" });
    },
    onError: () => "The conversation stream failed",
  });
}
