// An answer run's events for a subscriber: the stored steps (those newer than Last-Event-ID), then
// live events newer than the snapshot (lib/runs/live.ts), until the answer or the error. Shared by
// the SSE stream and the OpenAI-compatible endpoint.
import { parseJson } from "../db/json";
import * as store from "../db/answers";
import { AppError } from "../errors";
import { followRun } from "../runs/live";
import { getRun, pausedOf } from "../db/runs";
import { usageSummary } from "./view";
import { answerTopic, type AnswerEvent, type AnswerRunEvent, type FinalAnswer, type Trackers } from "./events";
import { zeroUsage, type Reference, type UsageByPurpose } from "./types";
import { credentialEndedMessage, releaseCredentialSignal } from "../auth/api-tokens-watch";

/** The headers of every server-sent-events response of the answer agent (its own stream, /v1 chat and responses). */
export const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive" };

export interface NumberedEvent {
  seq: number;
  event: AnswerEvent;
}

type Snapshot = {
  row: NonNullable<Awaited<ReturnType<typeof store.loadAnswerRun>>>;
  steps: Awaited<ReturnType<typeof store.answerSteps>>;
  paused: ReturnType<typeof pausedOf>;
};

const BUDGET_TOO_SMALL = /^The token budget \(\d+\) is too small/;

/** The final event of a finished run, rebuilt from what is stored. */
function finalEvent({ row, steps }: Snapshot): AnswerEvent | null {
  if (row.status === "completed") {
    const state = parseJson<{ visited?: string[]; read?: string[]; step?: number; badAttempts?: number }>(row.state, {});
    const last = parseJson<{ beast?: boolean; reason?: string }>(steps.at(-1)?.payload ?? "{}", {});
    const references = parseJson<Reference[]>(row.references, []);
    const data: FinalAnswer = {
      requestId: row.requestId,
      answer: row.answer ?? "",
      references,
      visitedURLs: state.visited ?? [],
      readURLs: state.read ?? [],
      usage: usageSummary({ ...zeroUsage(), ...parseJson<Partial<UsageByPurpose>>(row.usage, {}) }, row.budget),
      steps: state.step ?? steps.length,
      badAttempts: state.badAttempts ?? 0,
      beastMode: last.beast ? (last.reason ?? "beast mode") : null,
      noSources: Boolean(last.beast) && references.length === 0,
    };
    return { type: "answer", data };
  }
  if (row.status === "failed") {
    const message = row.error ?? "The answer run failed";
    // The engine's message for a budget too small (engine.ts, fail): the same request fails again.
    return { type: "error", data: BUDGET_TOO_SMALL.test(message) ? { message, code: "budget_too_small" } : { message } };
  }
  if (row.status === "cancelled") return { type: "error", data: { message: row.error ?? "Cancelled by the user" } };
  return null;
}

/**
 * Every event after `lastEventId` (all of them without it), stored then live, ending with the
 * answer or the error. 404 for a request that is not the caller's. `over`: the run ended and its
 * end is at or before `lastEventId` (a reconnect after the end; the stream route answers 204).
 */
export async function followAnswer({ requestId, userId, lastEventId, signal }: { requestId: string; userId: string | null; lastEventId?: number; signal: AbortSignal }) {
  const owned = await store.getAnswerRun({ requestId, userId });
  if (!owned) throw new AppError("not_found:answer", "Answer not found");
  const followed = await followRun<Snapshot, AnswerRunEvent>(answerTopic(owned.id), async () => {
    const row = await store.loadAnswerRun(owned.id);
    if (!row) return null;
    const [steps, run] = await Promise.all([store.answerSteps(owned.id), getRun({ kind: "answer", subjectId: owned.id })]);
    return { row, steps, paused: row.status === "running" ? pausedOf(run) : null };
  });
  if (!followed) throw new AppError("not_found:answer", "Answer not found");
  const { seq: snapshotSeq, snapshot } = followed;
  const after = lastEventId ?? -1;
  const final = finalEvent(snapshot);
  // The run ended and the subscriber has its end already: nothing more will ever come.
  const over = final !== null && snapshot.row.finalSeq !== null && snapshot.row.finalSeq <= after;
  async function* events(): AsyncGenerator<NumberedEvent> {
    // A step is stored with its event's number before the event goes out: one stored but not yet
    // emitted is in the snapshot and, later, live. Send it once, under its own number.
    const sentSteps = new Set(snapshot.steps.map((s) => s.step));
    try {
      for (const s of snapshot.steps) {
        // Rows stored before steps carried their number have none: at most the snapshot's.
        const seq = s.seq ?? snapshotSeq;
        if (s.seq !== null && seq <= after) continue;
        yield { seq, event: { type: "progress", data: { trackers: parseJson<Trackers>(s.trackers, {} as Trackers) } } };
      }
      if (final) {
        const seq = snapshot.row.finalSeq ?? snapshotSeq;
        if (snapshot.row.finalSeq === null || seq > after) yield { seq, event: final };
        return;
      }
      // Paused as of the snapshot: a subscriber arriving during an outage learns it now, not at its end.
      if (snapshot.paused) yield { seq: snapshotSeq, event: { type: "paused", data: { paused: snapshot.paused } } };
      for await (const e of followed!.events(signal)) {
        if (e.type === "progress" && sentSteps.has(e.data.trackers.step)) continue;
        yield { seq: e.seq, event: { type: e.type, data: e.data } as AnswerEvent };
        if (e.type === "answer" || e.type === "error") return;
      }
    } finally {
      followed!.stop();
    }
  }
  if (over) followed.stop();
  return { runId: owned.id, over, events: events() };
}

/** One event in SSE framing: `id:` is its sequence number, `data:` `{type, …data}`. */
export function sseFrame({ seq, event }: NumberedEvent): string {
  return `id: ${seq}\ndata: ${JSON.stringify({ type: event.type, ...event.data })}\n\n`;
}

/** How often a quiet stream gets a comment line, so that proxies keep it open (clients skip it). */
const PING_MS = 15_000;

/**
 * A server-sent-events body, the one pump of the answer stream, /v1 chat and /v1 responses: `run`
 * writes the frames (a write after the client left is dropped) while a comment line goes out every
 * 15 s; a failure of `run` is written by `failed` unless the request was aborted; then `end` writes
 * the last frames (chat's [DONE]) and the body closes. `cancel` runs when the client goes away.
 */
export function sseStream({ signal, run, failed, end, cancel, ping = ": ping\n\n" }: {
  signal: AbortSignal;
  run: (write: (text: string) => void) => Promise<void>;
  failed: (message: string, write: (text: string) => void) => void;
  end?: (write: (text: string) => void) => void;
  cancel: () => void;
  ping?: string;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream({
    async start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // the client went away: the stream is closed
        }
      };
      timer = setInterval(() => write(ping), PING_MS);
      try {
        await run(write);
      } catch (error) {
        if (!signal.aborted) failed(error instanceof Error ? error.message : "The stream failed", write);
      } finally {
        clearInterval(timer);
      }
      end?.(write);
      try {
        controller.close();
      } catch {
        // the client went away first
      }
    },
    cancel() {
      clearInterval(timer);
      cancel();
    },
  });
}

/** The SSE body of the stream route. */
export function sseBody(events: AsyncGenerator<NumberedEvent>, signal: AbortSignal): ReadableStream<Uint8Array> {
  return sseStream({
    signal,
    run: async (write) => {
      try {
        for await (const e of events) write(sseFrame(e));
        // Its token revoked (or its session ended): the last frame says so.
        const ended = credentialEndedMessage(signal);
        if (ended) write(`data: ${JSON.stringify({ type: "error", message: ended })}\n\n`);
      } finally {
        releaseCredentialSignal(signal);
      }
    },
    failed: (message, write) => write(`data: ${JSON.stringify({ type: "error", message })}\n\n`),
    cancel: () => void events.return(undefined),
  });
}
