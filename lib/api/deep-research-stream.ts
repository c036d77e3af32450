// A Deep Research conversation as an AI SDK UI message stream: its snapshot, then its typed data
// parts (lib/deep-research/stream.ts) until the loop has ended. A late or reconnecting client
// misses nothing and sees nothing twice (lib/api/run-stream.ts).
import { partId, type DeepResearchUIMessage, type DrEvent } from "../deep-research/stream";
import type { ConversationSnapshot } from "../deep-research/snapshot";
import { runStream } from "./run-stream";

export function conversationStream({ id, userId, signal }: { id: string; userId: string; signal: AbortSignal }) {
  return runStream<DeepResearchUIMessage, ConversationSnapshot, DrEvent>({
    kind: "deep-research",
    subjectId: id,
    userId,
    signal,
    notFound: { code: "not_found:conversation", message: "Conversation not found" },
    writeSnapshot: (writer, conversation, seq) => writer.write({ type: "data-snapshot", id: "snapshot", data: { seq, conversation } }),
    writeEvent: (writer, e) => {
      const pid = partId(e);
      // A reply's text as it is written: appended by the client, never kept in its message history.
      const transient = e.type === "reply-delta";
      writer.write({ type: `data-${e.type}`, ...(pid ? { id: pid } : {}), data: { ...e.data, seq: e.seq, at: e.at }, ...(transient ? { transient } : {}) } as never);
    },
    failureMessage: "The conversation stream failed",
  });
}
