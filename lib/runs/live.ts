// Following a run live, for any engine's stream, whichever process runs it: subscribe first, then
// read where the run's events are (followPosition) and the engine's snapshot (every event up to that
// number was written to the database before it was emitted, so the snapshot holds it), then take
// only the events newer than it — from this process's bus while the run executes here, and from the
// event log (lib/events/log.ts) while it executes elsewhere (another web instance, a worker, the
// process that took it over). A late or reconnecting client misses nothing and sees nothing twice;
// numbers are durable, so this holds across a restart or a takeover too. The events go out in number
// order, whatever order they reach this process in (live-order.ts).
import { eventBus, SEQ_SKIPPED, type RunEvent, type RunTopic } from "../events/bus";
import { eventLog } from "../events/log";
import type { ArmedWakeup } from "../wakeups";
import { followPosition } from "./events";
import { HOLD_MS, SeqOrder } from "./live-order";

export interface FollowedRun<S, E extends RunEvent> {
  seq: number;
  snapshot: S;
  /** The events newer than the snapshot, in order, until the signal aborts or `stop` is called. */
  events(signal: AbortSignal): AsyncGenerator<E>;
  stop(): void;
}

/** The first number of a skipped range (its record's `seq` is the last); the record's own number when it names none. */
const skippedFrom = (logged: { seq: number; data: unknown }): number => {
  const from = (logged.data as { from?: unknown } | null)?.from;
  return typeof from === "number" && from <= logged.seq ? from : logged.seq;
};

/** While the run executes here, how often to check that it still does (a lost lease moves it elsewhere). */
const LOCAL_CHECK_MS = 1_000;

/**
 * Resolves with null (and follows nothing) when `readSnapshot` finds nothing, e.g. not the caller's.
 * `holdMs`: how long an event waits for a missing number before it (live-order.ts).
 */
export async function followRun<S, E extends RunEvent>(topic: RunTopic, readSnapshot: () => Promise<S | null>, { holdMs = HOLD_MS } = {}): Promise<FollowedRun<S, E> | null> {
  const queue: E[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = eventBus.subscribe(topic, (e) => {
    queue.push(e as E);
    wake?.();
  });
  let position: Awaited<ReturnType<typeof followPosition>>;
  let snapshot: S | null;
  try {
    position = await followPosition(topic);
    snapshot = await readSnapshot();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  if (snapshot === null) {
    unsubscribe();
    return null;
  }
  const { seq, runId } = position;
  let cursor = position.log?.cursor;
  let stopped = false;
  const stopping = new AbortController();
  const stop = () => {
    stopped = true;
    unsubscribe();
    stopping.abort();
    wake?.();
  };
  /** In number order, each once (an event may come both from the bus and from the log). */
  const order = new SeqOrder<E>(seq, holdMs);

  async function* events(signal: AbortSignal): AsyncGenerator<E> {
    const waiting = AbortSignal.any([signal, stopping.signal]);
    // A wait ends on a stop or the client going, and, while the run is here (its events come by the
    // bus), every LOCAL_CHECK_MS to see that it still is: one listener and one interval per
    // follower, not a listener, a timer and an AbortController per event (~0.1 ms each time).
    const rouse = () => wake?.();
    waiting.addEventListener("abort", rouse, { once: true });
    const recheck = setInterval(rouse, LOCAL_CHECK_MS);
    recheck.unref();
    /** For a run elsewhere: listening for its log to grow since before the last read (disposing of it ends its wait). */
    let armed: ArmedWakeup | undefined;
    try {
      while (!stopped && !signal.aborted) {
        armed?.dispose();
        armed = undefined;
        let progress = false;
        for (const e of queue.splice(0)) progress = order.add(e) || progress;
        const current = eventBus.currentSeq(topic);
        const here = current !== undefined;
        // Here, every number up to the run's current one has been emitted (to this queue) or never will be.
        if (here) order.settle(current);
        // Before the read: an append announced while it is under way (its message can come before the
        // read's answer) wakes the wait after it, instead of being lost until the log's poll.
        if (!here && runId) armed = eventLog().arm(runId);
        let moved = false;
        if (!here && runId && cursor !== undefined) {
          // While a number is missing, a log read by number reads again from before it.
          const read = await eventLog().read(runId, cursor, order.holding ? order.position : undefined);
          moved = read.cursor !== cursor;
          cursor = read.cursor;
          for (const logged of read.events) {
            // Numbers their process will never use: skipped, not waited for (no client sees the record).
            if (logged.type === SEQ_SKIPPED) progress = order.skip(skippedFrom(logged), logged.seq) || progress;
            else progress = order.add({ ...logged, runId, kind: topic.kind, subjectId: topic.subjectId } as unknown as E) || progress;
          }
        }
        order.expire();
        for (const e of order.take()) {
          yield e;
          if (stopped) break;
        }
        if (stopped) break;
        if (progress || moved || queue.length > 0) continue;
        if (waiting.aborted) break;
        // Woken by this process's bus, by `rouse`, for a run elsewhere by an append to its log anywhere
        // (or the log's poll), and when an event held for a missing number has waited long enough.
        let end!: () => void;
        const woken = new Promise<void>((resolve) => (wake = end = resolve));
        const deadline = order.deadline();
        const holdLeft = deadline === undefined ? undefined : Math.max(0, deadline - performance.now());
        const holdTimer = holdLeft === undefined ? undefined : setTimeout(end, holdLeft);
        // Its wait ends with it, at the loop's next turn or in `finally`.
        if (armed) void armed.wait(Math.min(eventLog().pollMs, holdLeft ?? Infinity), waiting).then(end);
        await woken;
        clearTimeout(holdTimer);
        wake = undefined;
      }
    } finally {
      armed?.dispose();
      clearInterval(recheck);
      waiting.removeEventListener("abort", rouse);
      stop();
    }
  }
  return { seq, snapshot, events, stop };
}
