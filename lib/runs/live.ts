// Following a run live, for any engine's stream: subscribe first, then read the engine's snapshot
// with the sequence number it is current to (every event up to it was written to the database
// before it was emitted, so the snapshot holds it), then take only the events newer than it. A late
// or reconnecting client misses nothing and sees nothing twice; numbers are durable, so this holds
// across a restart too.
import { eventBus, type RunEvent, type RunTopic } from "../events/bus";
import { currentSeq } from "./events";

export interface FollowedRun<S, E extends RunEvent> {
  seq: number;
  snapshot: S;
  /** The events newer than the snapshot, in order, until the signal aborts or `stop` is called. */
  events(signal: AbortSignal): AsyncGenerator<E>;
  stop(): void;
}

/** Resolves with null (and follows nothing) when `readSnapshot` finds nothing, e.g. not the caller's. */
export async function followRun<S, E extends RunEvent>(topic: RunTopic, readSnapshot: () => Promise<S | null>): Promise<FollowedRun<S, E> | null> {
  const queue: E[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = eventBus.subscribe(topic, (e) => {
    queue.push(e as E);
    wake?.();
  });
  let seq: number;
  let snapshot: S | null;
  try {
    seq = await currentSeq(topic);
    snapshot = await readSnapshot();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  if (snapshot === null) {
    unsubscribe();
    return null;
  }
  let stopped = false;
  const stop = () => {
    stopped = true;
    unsubscribe();
    wake?.();
  };
  async function* events(signal: AbortSignal): AsyncGenerator<E> {
    try {
      while (!stopped && !signal.aborted) {
        if (queue.length === 0) {
          // One abort listener per wait, removed after it: a long run wakes this loop thousands of times.
          let resume = () => {};
          await new Promise<void>((resolve) => {
            resume = wake = resolve;
            signal.addEventListener("abort", resume, { once: true });
          });
          signal.removeEventListener("abort", resume);
          wake = undefined;
        }
        for (const e of queue.splice(0)) if (e.seq > seq) yield e;
      }
    } finally {
      stop();
    }
  }
  return { seq, snapshot, events, stop };
}
