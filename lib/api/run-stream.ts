// Any engine's run as an AI SDK UI message stream: the engine's snapshot with the sequence number it
// is current to, then the live events newer than it (lib/runs/live.ts), until the engine's final
// event. A late or reconnecting client misses nothing and sees nothing twice. Each engine's own
// stream decides how its snapshot and events become data parts; the engine-neutral stream
// (GET /api/runs/:id/stream) sends the envelope as it is.
import { createUIMessageStream, createUIMessageStreamResponse, type UIMessage, type UIMessageChunk, type UIMessageStreamWriter } from "ai";
import type { RunKind } from "../db/runs";
import { AppError, type ErrorCode } from "../errors";
import type { RunEvent } from "../events/bus";
import type { RunSnapshot } from "../runs/engine";
import { runRegistry } from "../runs/engines";
import { followRun } from "../runs/live";

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
  const stream = createUIMessageStream<M>({
    execute: async ({ writer }) => {
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
      // A client can tell a finished run from a dropped connection.
      if (done) writer.write({ type: "finish" });
    },
    onError: () => o.failureMessage,
  });
  return { stream, final: snapshot.final };
}

/**
 * The response of a run stream, with keep-alive pings. A live run's is never compressed, so events
 * are not held back: gzip buffered each event until more data came, delaying progress by ~150 ms
 * (p95 ~600 ms) in the benchmark (no-transform keeps it off). An ended run's is one snapshot and the
 * end, which the server may gzip: a fraction of the size.
 */
export function runStreamResponse({ stream, final }: { stream: ReadableStream<UIMessageChunk>; final: boolean }): Response {
  return createUIMessageStreamResponse({ stream, keepAliveMs: 15_000, headers: { "cache-control": final ? "no-cache" : "no-cache, no-transform" } });
}
