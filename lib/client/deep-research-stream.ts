// Reads GET /api/deep-research/conversations/:id/stream (an AI SDK UI message stream), reconnecting
// with backoff when it drops while the loop still runs — the same pattern as research-stream.ts.
// Each (re)connection starts with a fresh snapshot, so nothing is missed or applied twice.
import { parseJsonEventStream, uiMessageChunkSchema } from "ai";
import { redirectToSignIn } from "./api";
import type { DrChunk } from "./deep-research-state";
import type { StreamConnection } from "./research-stream";

export interface DrStreamHandlers {
  onChunk: (chunk: DrChunk) => void;
  onConnection?: (state: StreamConnection) => void;
  onNotFound?: () => void;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

export function subscribeConversationStream(id: string, handlers: DrStreamHandlers): () => void {
  const controller = new AbortController();
  let attempt = 0;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      controller.signal.addEventListener("abort", () => { clearTimeout(t); resolve(); }, { once: true });
    });

  async function connectOnce(): Promise<"finished" | "dropped" | "not-found"> {
    const res = await fetch(`/api/deep-research/conversations/${encodeURIComponent(id)}/stream`, {
      signal: controller.signal,
      headers: { accept: "text/event-stream" },
      cache: "no-store",
    });
    if (res.status === 404) return "not-found";
    if (res.status === 401) { redirectToSignIn(); return "finished"; }
    if (!res.ok || !res.body) return "dropped";
    const reader = parseJsonEventStream({ stream: res.body, schema: uiMessageChunkSchema }).getReader();
    // A stream that ends after showing an idle conversation is complete, `finish` chunk or not.
    let idle = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return idle ? "finished" : "dropped";
        if (!value.success) continue;
        const chunk = value.value;
        if (chunk.type === "finish") return "finished";
        if (!chunk.type.startsWith("data-")) continue;
        const data = chunk as unknown as DrChunk;
        if (data.type === "data-snapshot") {
          attempt = 0;
          handlers.onConnection?.("live");
          idle = !data.data.conversation.deepResearchRun.isRunning;
        } else if (data.type === "data-run") idle = !data.data.isRunning;
        handlers.onChunk(data);
      }
    } finally {
      reader.releaseLock();
    }
  }

  void (async () => {
    handlers.onConnection?.("connecting");
    while (!controller.signal.aborted) {
      let outcome: "finished" | "dropped" | "not-found";
      try { outcome = await connectOnce(); } catch { outcome = "dropped"; }
      if (controller.signal.aborted) return;
      if (outcome === "not-found") { handlers.onConnection?.("closed"); handlers.onNotFound?.(); return; }
      if (outcome === "finished") { handlers.onConnection?.("closed"); return; }
      handlers.onConnection?.("reconnecting");
      await sleep(BACKOFF_MS[Math.min(attempt++, BACKOFF_MS.length - 1)]);
    }
  })();
  return () => controller.abort();
}
