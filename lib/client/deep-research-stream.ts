// Reads GET /api/deep-research/conversations/:id/stream, reconnecting while the loop still runs
// (run-stream.ts).
import type { DrChunk } from "./deep-research-state";
import { subscribeRunStream, type RunStreamHandlers } from "./run-stream";

export type DrStreamHandlers = RunStreamHandlers<DrChunk>;

export function subscribeConversationStream(id: string, handlers: DrStreamHandlers): () => void {
  return subscribeRunStream<DrChunk>({
    ...handlers,
    url: `/api/deep-research/conversations/${encodeURIComponent(id)}/stream`,
    ended: (c) => (c.type === "data-snapshot" ? !c.data.conversation.deepResearchRun.isRunning : c.type === "data-run" ? !c.data.isRunning : undefined),
  });
}
