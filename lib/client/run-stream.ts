// Reads any run's AI SDK UI message stream (a research's, a conversation's) and reconnects with
// backoff when the connection drops before the run has ended. Each (re)connection starts with a
// fresh snapshot, so nothing is missed or applied twice.
import { redirectToSignIn } from "./api";
import { readSseJson } from "./sse";

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
    // A small SSE reader rather than the AI SDK's parser: that one validates every chunk with zod
    // and would put the SDK and zod in the research page's bundle (~75 KB gzipped).
    const chunks = readSseJson(res.body, controller.signal);
    // A stream that ends after showing an ended run is complete, `finish` chunk or not.
    let over = false;
    for await (const value of chunks) {
      if (!value || typeof value !== "object" || typeof (value as { type?: unknown }).type !== "string") continue;
      const chunk = value as { type: string };
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
    return over ? "finished" : "dropped";
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
