// Reads any run's AI SDK UI message stream (a research's, a conversation's) and reconnects with
// backoff when the connection drops before the run has ended. Each (re)connection starts with a
// fresh snapshot, so nothing is missed or applied twice.
import { parseJsonEventStream, uiMessageChunkSchema } from "ai";
import { redirectToSignIn } from "./api";

export type StreamConnection = "connecting" | "live" | "reconnecting" | "closed";

export interface RunStreamHandlers<C> {
  onChunk: (chunk: C) => void;
  onConnection?: (state: StreamConnection) => void;
  /** The run's subject does not exist (or is not ours): stop for good. */
  onNotFound?: () => void;
}

export interface RunStreamOptions<C> extends RunStreamHandlers<C> {
  url: string;
  /** Whether the run has ended as of this data chunk (a snapshot or a status); undefined: no news. */
  ended: (chunk: C) => boolean | undefined;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

export function subscribeRunStream<C extends { type: string }>({ url, ended, ...handlers }: RunStreamOptions<C>): () => void {
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
    const res = await fetch(url, { signal: controller.signal, headers: { accept: "text/event-stream" }, cache: "no-store" });
    if (res.status === 404) return "not-found";
    if (res.status === 401) {
      redirectToSignIn();
      return "finished";
    }
    if (!res.ok || !res.body) return "dropped";
    const reader = parseJsonEventStream({ stream: res.body, schema: uiMessageChunkSchema }).getReader();
    // A stream that ends after showing an ended run is complete, `finish` chunk or not.
    let over = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return over ? "finished" : "dropped";
        if (!value.success) continue;
        const chunk = value.value;
        if (chunk.type === "finish") return "finished";
        if (!chunk.type.startsWith("data-")) continue;
        if (chunk.type === "data-snapshot") {
          attempt = 0;
          handlers.onConnection?.("live");
        }
        const data = chunk as unknown as C;
        over = ended(data) ?? over;
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
      try {
        outcome = await connectOnce();
      } catch {
        outcome = "dropped";
      }
      if (controller.signal.aborted) return;
      if (outcome !== "dropped") {
        handlers.onConnection?.("closed");
        if (outcome === "not-found") handlers.onNotFound?.();
        return;
      }
      handlers.onConnection?.("reconnecting");
      await sleep(BACKOFF_MS[Math.min(attempt++, BACKOFF_MS.length - 1)]);
    }
  })();

  return () => controller.abort();
}
