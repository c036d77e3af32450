// Any engine's run as an AI SDK UI message stream: the engine's snapshot with the sequence number it
// is current to, then the live events newer than it (lib/runs/live.ts), until the engine's final
// event. A late or reconnecting client misses nothing and sees nothing twice. Each engine's own
// stream decides how its snapshot and events become data parts; the engine-neutral stream
// (GET /api/runs/:id/stream) sends the envelope as it is.
import { createUIMessageStream, UI_MESSAGE_STREAM_HEADERS, type UIMessage, type UIMessageChunk, type UIMessageStreamWriter } from "ai";
import type { RunKind } from "../db/runs";
import { AppError, type ErrorCode } from "../errors";
import type { RunEvent } from "../events/bus";
import type { RunSnapshot } from "../runs/engine";
import { runRegistry } from "../runs/engines";
import { followRun } from "../runs/live";
import { credentialEndedMessage, releaseCredentialSignal } from "../auth/api-tokens-watch";

export interface RunStreamOptions<M extends UIMessage, D, E extends RunEvent> {
  kind: RunKind;
  subjectId: string;
  userId: string | null;
  signal: AbortSignal;
  /** The error when the subject is not the caller's (or does not exist). */
  notFound: { code: ErrorCode; message: string };
  writeSnapshot(writer: UIMessageStreamWriter<M>, snapshot: D, seq: number): void;
  writeEvent(writer: UIMessageStreamWriter<M>, event: E): void;
  /** What the client reads when the stream breaks on the server's side. */
  failureMessage: string;
}

/** The stream, and whether the run had already ended (the stream is then one snapshot and closes). */
export async function runStream<M extends UIMessage, D, E extends RunEvent>(o: RunStreamOptions<M, D, E>) {
  const engine = runRegistry.engine(o.kind);
  const followed = await followRun<RunSnapshot<D>, E>({ kind: o.kind, subjectId: o.subjectId }, () =>
    engine.snapshot(o.subjectId, o.userId) as Promise<RunSnapshot<D> | null>,
  );
  if (!followed) throw new AppError(o.notFound.code, o.notFound.message);
  const { seq, snapshot } = followed;
  const follow = async (writer: UIMessageStreamWriter<M>) => {
    writer.write({ type: "start" });
    o.writeSnapshot(writer, snapshot.data, seq);
    let done = snapshot.final;
    if (done) followed.stop();
    for await (const event of followed.events(o.signal)) {
      o.writeEvent(writer, event);
      if (engine.isFinal(event)) {
        done = true;
        followed.stop();
      }
    }
    // A client can tell a finished run from a dropped connection, and from a stream that its revoked
    // token (or ended session) may no longer read.
    if (done) writer.write({ type: "finish" });
    else {
      const ended = credentialEndedMessage(o.signal);
      if (ended) writer.write({ type: "error", errorText: ended });
    }
  };
  const stream = createUIMessageStream<M>({
    execute: async ({ writer }) => {
      try {
        await follow(writer);
      } finally {
        releaseCredentialSignal(o.signal);
      }
    },
    onError: () => o.failureMessage,
  });
  return { stream, final: snapshot.final };
}

/** A comment on a stream idle for this long (up to twice as long), so that proxies and browsers keep it open. */
const KEEP_ALIVE_MS = 15_000;
const encoder = new TextEncoder();
const sse = (text: string) => encoder.encode(text);
const message = (chunk: UIMessageChunk) => `data: ${JSON.stringify(chunk)}\n\n`;

/** Messages sent in one chunk at most (a long burst still goes out in pieces as it is encoded). */
const MAX_MESSAGES_PER_CHUNK = 64;
const NOT_YET_VALUE = Symbol("not yet");
/** Settled already: a race against it is won by a read only when that read has its message now. */
const NOT_YET = Promise.resolve(NOT_YET_VALUE);

/**
 * A UI message stream on the wire, as `createUIMessageStreamResponse` sends it (an opening comment,
 * `data: <json>` per chunk, `data: [DONE]` at the end, keep-alive comments), in one stream: the AI
 * SDK's goes through three (JSON to SSE, keep-alive, and Node's TextEncoderStream, which on Node 20
 * copies each message into a new string one character at a time: ~45 MB of garbage per (5, 5)
 * research's stream, bench/README.md). A message is one whole string (JSON.stringify escapes lone
 * surrogates), so each is encoded on its own. The messages waiting when a chunk goes go together in it
 * (up to 64), so that a burst costs one socket write, not one per message.
 */
export function encodeUIMessageStream(stream: ReadableStream<UIMessageChunk>, { keepAliveMs = KEEP_ALIVE_MS } = {}): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let sentSinceTick = true;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** A read that had nothing yet when the last chunk went: the next pull waits for it. */
  let pending: Promise<ReadableStreamReadResult<UIMessageChunk>> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(sse(": stream-open\n\n"));
      timer = setInterval(() => {
        // Not while the client has not read the last one (a ping each tick would pile up).
        if (!sentSinceTick && (controller.desiredSize ?? 0) > 0) controller.enqueue(sse(": keep-alive\n\n"));
        sentSinceTick = false;
      }, keepAliveMs);
    },
    async pull(controller) {
      try {
        const first = await (pending ?? reader.read());
        pending = undefined;
        if (first.done) {
          clearInterval(timer);
          controller.enqueue(sse("data: [DONE]\n\n"));
          controller.close();
          return;
        }
        // The messages already waiting go in the same chunk: one write to the socket for a burst (a
        // query's pages, a page of the event log read at once) instead of one per message. None waits:
        // a read that has nothing yet is left for the next pull.
        let text = message(first.value);
        for (let n = 1; n < MAX_MESSAGES_PER_CHUNK; n++) {
          const read = reader.read();
          const ready = await Promise.race([read, NOT_YET]);
          if (ready === NOT_YET_VALUE || ready.done) {
            pending = read;
            break;
          }
          text += message(ready.value);
        }
        sentSinceTick = true;
        controller.enqueue(sse(text));
      } catch (error) {
        clearInterval(timer);
        throw error;
      }
    },
    cancel(reason) {
      clearInterval(timer);
      return reader.cancel(reason);
    },
  });
}

/**
 * The response of a run stream, with keep-alive pings. A live run's is never compressed, so events
 * are not held back: gzip buffered each event until more data came, delaying progress by ~150 ms
 * (p95 ~600 ms) in the benchmark (no-transform keeps it off). An ended run's is one snapshot and the
 * end, which the server may gzip: a fraction of the size.
 */
export function runStreamResponse({ stream, final }: { stream: ReadableStream<UIMessageChunk>; final: boolean }): Response {
  return new Response(encodeUIMessageStream(stream), { headers: { ...UI_MESSAGE_STREAM_HEADERS, "cache-control": final ? "no-cache" : "no-cache, no-transform" } });
}
