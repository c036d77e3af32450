// Reads GET /api/research/:id/stream (an AI SDK UI message stream) and reconnects with backoff
// when the connection drops before the research is terminal. Each (re)connection starts with a
// fresh snapshot, so nothing is missed or applied twice.
import { parseJsonEventStream, uiMessageChunkSchema } from "ai";
import { redirectToSignIn } from "./api";
import { isTerminal, type ResearchDataChunk } from "./research-state";

export type StreamConnection = "connecting" | "live" | "reconnecting" | "closed";

export interface StreamHandlers {
  onChunk: (chunk: ResearchDataChunk) => void;
  onConnection?: (state: StreamConnection) => void;
  /** The research does not exist (or is not ours): stop for good. */
  onNotFound?: () => void;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

export function subscribeResearchStream(researchId: string, handlers: StreamHandlers): () => void {
  const controller = new AbortController();
  let attempt = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      controller.signal.addEventListener("abort", () => {
        clearTimeout(t);
        resolve();
      }, { once: true });
    });

  async function connectOnce(): Promise<"finished" | "dropped" | "not-found"> {
    const res = await fetch(`/api/research/${encodeURIComponent(researchId)}/stream`, {
      signal: controller.signal,
      headers: { accept: "text/event-stream" },
      cache: "no-store",
    });
    if (res.status === 404) return "not-found";
    if (res.status === 401) {
      redirectToSignIn();
      return "finished";
    }
    if (!res.ok || !res.body) return "dropped";
    const reader = parseJsonEventStream({ stream: res.body, schema: uiMessageChunkSchema }).getReader();
    // A stream that ends after showing a terminal research is complete, `finish` chunk or not.
    let terminal = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return terminal ? "finished" : "dropped";
        if (!value.success) continue;
        const chunk = value.value;
        if (chunk.type === "finish") return "finished";
        if (chunk.type.startsWith("data-")) {
          if (chunk.type === "data-snapshot") {
            attempt = 0;
            handlers.onConnection?.("live");
          }
          const data = chunk as unknown as ResearchDataChunk;
          if (data.type === "data-snapshot") terminal = isTerminal(data.data.research.status);
          else if (data.type === "data-run") terminal = isTerminal(data.data.status);
          handlers.onChunk(data);
        }
      }
    } finally {
      reader.releaseLock();
    }
  }

  void (async () => {
    handlers.onConnection?.("connecting");
    while (!controller.signal.aborted) {
      let outcome: "finished" | "dropped" | "not-found";
      try {
        outcome = await connectOnce();
      } catch {
        outcome = "dropped";
      }
      if (controller.signal.aborted) return;
      if (outcome === "not-found") {
        handlers.onConnection?.("closed");
        handlers.onNotFound?.();
        return;
      }
      if (outcome === "finished") {
        handlers.onConnection?.("closed");
        return;
      }
      handlers.onConnection?.("reconnecting");
      await sleep(BACKOFF_MS[Math.min(attempt++, BACKOFF_MS.length - 1)]);
    }
  })();

  return () => controller.abort();
}
