// Reads GET /api/research/:id/stream, reconnecting until the research is terminal (run-stream.ts).
import { isTerminal, type ResearchDataChunk } from "./research-state";
import { subscribeRunStream, type RunStreamHandlers } from "./run-stream";

export type { StreamConnection } from "./run-stream";
export type StreamHandlers = RunStreamHandlers<ResearchDataChunk>;

export function subscribeResearchStream(researchId: string, handlers: StreamHandlers): () => void {
  return subscribeRunStream<ResearchDataChunk>({
    ...handlers,
    url: `/api/research/${encodeURIComponent(researchId)}/stream`,
    ended: (c) => (c.type === "data-snapshot" ? isTerminal(c.data.research.status) : c.type === "data-run" ? isTerminal(c.data.status) : undefined),
  });
}
