// The event bus of every engine's runs (in-process: the embedded default). Every event travels in
// one envelope, { runId, kind, subjectId, seq, type, data, at }; each engine declares its own
// `type`s and `data`. Sequence numbers are durable: a run's process numbers its events from blocks
// reserved in the database (lib/runs/registry.ts opens the topic with its first block), so numbering
// goes on, never repeating, after a restart or a takeover. Every event is also appended to the
// event log (log.ts: the database, or Redis with REDIS_URL), in sequence order, so that the streams
// of other processes follow the run too (lib/runs/live.ts).
import type { RunKind } from "../db/runs";
import { getEnv } from "../env";
import type { EventLog, LoggedEvent } from "./log";

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
  /** Resolves once every event emitted here for the topic so far is in the event log. */
  drain(topic: RunTopic): Promise<void>;
}

const keyOf = (topic: RunTopic) => `${topic.kind}:${topic.subjectId}`;

/**
 * The log's record of numbers a process reserved for a run and will never use (the rest of its block
 * when it closes the topic): `seq` is the range's last number, `data.from` its first. Streams of other
 * processes skip them instead of waiting (lib/runs/live-order.ts); no client sees it.
 */
export const SEQ_SKIPPED = "seq.skipped";

interface Numbering extends OpenTopic {
  last: number;
  /** Allocated, not yet emitted. */
  pending: Set<number>;
  /** The block after the current one, once reserved. */
  next?: number;
  reserving: boolean;
}

/** A topic's events waiting for the log, and the append in progress. */
interface Outbox {
  topic: RunTopic;
  runId: string;
  events: RunEvent[];
  timer?: ReturnType<typeof setTimeout>;
  writing: Promise<void>;
}

/** Events are appended to the log in batches this often: one write per run per batch. */
const logBatchMs = () => getEnv().EVENT_LOG_BATCH_MS;
const LOG_ATTEMPTS = 5;

export class InProcessEventBus implements EventBus {
  private readonly numbering = new Map<string, Numbering>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly outboxes = new Map<string, Outbox>();

  /** `log`: where events go for other processes (none: this process only, as in unit tests). */
  constructor(private readonly log?: () => Promise<EventLog>) {}

  open(topic: RunTopic, options: OpenTopic): void {
    this.numbering.set(keyOf(topic), { ...options, last: options.firstSeq - 1, pending: new Set(), reserving: false });
  }

  close(topic: RunTopic): void {
    const key = keyOf(topic);
    const n = this.numbering.get(key);
    this.numbering.delete(key);
    // The numbers it will never use (the rest of its block, a block reserved ahead) are logged as such: other processes' streams go on at once instead of waiting for them.
    if (n) for (const [from, to] of unusedRanges(n)) this.record(key, { type: SEQ_SKIPPED, data: { from }, runId: n.runId, kind: topic.kind, subjectId: topic.subjectId, seq: to, at: performance.timeOrigin + performance.now() });
    // Numbers allocated and never emitted no longer hold the rest back.
    this.flushSoon(key, 0);
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
    this.record(key, emitted);
    return emitted;
  }

  /** Queues an emitted event for the log. */
  private record(key: string, event: RunEvent): void {
    if (!this.log) return;
    let box = this.outboxes.get(key);
    if (!box || box.runId !== event.runId) {
      box = { topic: { kind: event.kind, subjectId: event.subjectId }, runId: event.runId, events: [], writing: box?.writing ?? Promise.resolve() };
      this.outboxes.set(key, box);
    }
    box.events.push(event);
    // Emitted from a process that does not run it (a cancel's end): at once, it is the last.
    this.flushSoon(key, this.numbering.has(key) ? logBatchMs() : 0);
  }

  private flushSoon(key: string, ms: number): void {
    const box = this.outboxes.get(key);
    if (!box || box.events.length === 0) return;
    if (box.timer && ms > 0) return;
    clearTimeout(box.timer);
    box.timer = setTimeout(() => {
      box.timer = undefined;
      box.writing = box.writing.then(() => this.flush(key, box));
    }, ms);
  }

  /**
   * Appends the box's events numbered up to the topic's current number, in sequence order: a number
   * allocated and not yet emitted holds the later ones back, so a reader that has read up to a
   * number never sees a lower one appear after it.
   */
  private async flush(key: string, box: Outbox): Promise<void> {
    const upTo = this.numbering.has(key) ? (this.currentSeq(box.topic) ?? Infinity) : Infinity;
    const ready = box.events.filter((e) => e.seq <= upTo).sort((a, b) => a.seq - b.seq);
    if (ready.length === 0) return;
    box.events = box.events.filter((e) => e.seq > upTo);
    const rows: LoggedEvent[] = ready.map((e) => ({ seq: e.seq, type: e.type, data: e.data, at: e.at }));
    for (let attempt = 1; ; attempt++) {
      try {
        await (await this.log!()).append(box.runId, rows);
        break;
      } catch (error) {
        if (attempt >= LOG_ATTEMPTS) {
          console.error(`[quarry] could not log ${rows.length} event(s) of run ${box.runId}: other processes' streams miss them:`, error);
          break;
        }
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
    if (box.events.length === 0 && this.outboxes.get(key) === box && !this.numbering.has(key)) this.outboxes.delete(key);
    else if (box.events.length > 0) this.flushSoon(key, logBatchMs());
  }

  async drain(topic: RunTopic): Promise<void> {
    const key = keyOf(topic);
    for (;;) {
      const box = this.outboxes.get(key);
      if (!box) return;
      const writing = box.writing;
      if (box.events.length > 0) {
        clearTimeout(box.timer);
        box.timer = undefined;
        box.writing = writing.then(() => this.flush(key, box));
      }
      await box.writing;
      if (box.events.length === 0 || this.numbering.has(key)) return;
    }
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

/**
 * A closing topic's numbers never to be used, as ranges in order: its block's rest and a block reserved
 * ahead. (Not a number allocated and not yet emitted: its event may still be emitted, late.)
 */
function unusedRanges(n: Numbering): [number, number][] {
  const ranges: [number, number][] = [];
  const blockEnd = n.firstSeq + n.blockSize - 1;
  if (n.last < blockEnd) ranges.push([n.last + 1, blockEnd]);
  if (n.next !== undefined) {
    const from = Math.max(n.next, n.last + 1, blockEnd + 1);
    const to = n.next + n.blockSize - 1;
    if (from <= to) ranges.push([from, to]);
  }
  return ranges;
}

const globalForBus = globalThis as unknown as { quarryBus?: EventBus };
// The log (and the database and Redis clients behind it) is imported when first needed, and once: under
// tsx (`npm run worker`) every dynamic import goes through the module loader's thread, which cost a
// worker ~0.5 ms per flush of events.
let logModule: Promise<typeof import("./log")> | undefined;
export const eventBus: EventBus = (globalForBus.quarryBus ??= new InProcessEventBus(() => (logModule ??= import("./log")).then((m) => m.eventLog())));
