// The event bus of every engine's runs (in-process: the embedded default). Every event travels in
// one envelope, { runId, kind, subjectId, seq, type, data, at }; each engine declares its own
// `type`s and `data`. Sequence numbers are durable: a run's process numbers its events from blocks
// reserved in the database (lib/runs/registry.ts opens the topic with its first block), so numbering
// goes on, never repeating, after a restart or a takeover. A Redis implementation can replace this
// one behind the same interface.
import type { RunKind } from "../db/runs";

/** Whose events: an engine's run of one subject (a run is unique per kind and subject). */
export interface RunTopic {
  kind: RunKind;
  subjectId: string;
}

/** What an engine emits; the bus wraps it in the envelope. */
export interface EngineEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** The envelope every subscriber and stream sees. `at`: emit time, epoch ms. */
export type RunEvent<E extends EngineEvent = EngineEvent> = E & {
  runId: string;
  kind: RunKind;
  subjectId: string;
  seq: number;
  at: number;
};

export type Listener = (event: RunEvent) => void;

export interface OpenTopic {
  runId: string;
  /** The first sequence number of a block reserved for this process. */
  firstSeq: number;
  blockSize: number;
  /** Reserves the next block (in the database); resolves with its first number. */
  reserve: () => Promise<number>;
}

export interface EventBus {
  /** This process runs the topic's run from now on: number its events from the reserved block. */
  open(topic: RunTopic, options: OpenTopic): void;
  close(topic: RunTopic): void;
  /** Emits on an open topic (numbered from its blocks), or with `seq` given by the caller. */
  emit<E extends EngineEvent>(topic: RunTopic, event: E, seq?: { runId: string; seq: number }): RunEvent<E>;
  /**
   * The next number of an open topic, for an event stored with its number before it is emitted
   * (`emit(topic, event, allocated)`). Until it is emitted, `currentSeq` stays below it: a snapshot
   * read meanwhile never claims it, so a stream takes the event when it comes. (A number never
   * emitted only holds `currentSeq` back until the topic closes: later snapshots then take more
   * events as new, which streams drop as already seen; none is lost.)
   */
  allocate(topic: RunTopic): { runId: string; seq: number };
  subscribe(topic: RunTopic, listener: Listener): () => void;
  /** The last sequence number emitted here for a topic open here; undefined when its run is not here. */
  currentSeq(topic: RunTopic): number | undefined;
}

const keyOf = (topic: RunTopic) => `${topic.kind}:${topic.subjectId}`;

interface Numbering extends OpenTopic {
  last: number;
  /** Allocated, not yet emitted. */
  pending: Set<number>;
  /** The block after the current one, once reserved. */
  next?: number;
  reserving: boolean;
}

export class InProcessEventBus implements EventBus {
  private readonly numbering = new Map<string, Numbering>();
  private readonly listeners = new Map<string, Set<Listener>>();

  open(topic: RunTopic, options: OpenTopic): void {
    this.numbering.set(keyOf(topic), { ...options, last: options.firstSeq - 1, pending: new Set(), reserving: false });
  }

  close(topic: RunTopic): void {
    this.numbering.delete(keyOf(topic));
  }

  emit<E extends EngineEvent>(topic: RunTopic, event: E, given?: { runId: string; seq: number }): RunEvent<E> {
    const key = keyOf(topic);
    let runId: string;
    let seq: number;
    if (given) {
      ({ runId, seq } = given);
      this.numbering.get(key)?.pending.delete(seq);
    } else {
      const n = this.numbering.get(key);
      if (!n) throw new Error(`No run of ${key} is open in this process: give the event's seq`);
      runId = n.runId;
      seq = this.nextSeq(n);
    }
    const emitted = { ...event, runId, kind: topic.kind, subjectId: topic.subjectId, seq, at: performance.timeOrigin + performance.now() };
    for (const listener of this.listeners.get(key) ?? []) {
      try {
        listener(emitted);
      } catch (error) {
        console.error("[quarry] event listener failed:", error);
      }
    }
    return emitted;
  }

  allocate(topic: RunTopic): { runId: string; seq: number } {
    const n = this.numbering.get(keyOf(topic));
    if (!n) throw new Error(`No run of ${keyOf(topic)} is open in this process`);
    const seq = this.nextSeq(n);
    n.pending.add(seq);
    return { runId: n.runId, seq };
  }

  /** The next number of the current block; moves to the next block when it is used up. */
  private nextSeq(n: Numbering): number {
    const blockEnd = n.firstSeq + n.blockSize - 1;
    if (n.last >= blockEnd && n.next !== undefined) {
      // (Had the reservation been slow, numbering ran on past the block: never go back.)
      n.last = Math.max(n.last, n.next - 1);
      n.firstSeq = n.next;
      n.next = undefined;
    }
    const seq = ++n.last;
    // Half-way through a block, reserve the next one, so that emitting never waits for the database.
    if (!n.reserving && n.next === undefined && seq - n.firstSeq >= n.blockSize / 2) {
      n.reserving = true;
      n.reserve()
        .then((first) => (n.next = first))
        .catch((error: unknown) => console.error("[quarry] could not reserve event numbers:", error))
        .finally(() => (n.reserving = false));
    }
    return seq;
  }

  subscribe(topic: RunTopic, listener: Listener): () => void {
    const key = keyOf(topic);
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  currentSeq(topic: RunTopic): number | undefined {
    const n = this.numbering.get(keyOf(topic));
    if (!n) return undefined;
    return n.pending.size > 0 ? Math.min(...n.pending) - 1 : n.last;
  }
}

const globalForBus = globalThis as unknown as { quarryBus?: EventBus };
export const eventBus: EventBus = (globalForBus.quarryBus ??= new InProcessEventBus());
