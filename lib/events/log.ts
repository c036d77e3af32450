// Runs' events for the streams of other server processes. The bus (bus.ts) delivers a run's events
// to the streams of the process running it; it also appends them here, in sequence order, so that
// any process can follow any run: read the position before the snapshot, then every event after it.
// Two stores behind one interface:
// - without Redis, the database (RunEvent rows): readers are woken by LISTEN/NOTIFY on PostgreSQL,
//   and poll every POLL_MS on SQLite (several processes on one file);
// - with REDIS_URL, a Redis stream per run (XADD / XRANGE), readers woken by pub/sub.
import { appendRunEvents, lastRunEventSeq, listenRunEvents, pruneRunEvents, runEventsAfter, runEventsNotify } from "../db/run-events";
import { onRedisMessages, redis, redisEnabled, redisKey } from "../redis";
import { Wakeups, type ArmedWakeup } from "../wakeups";

export interface LoggedEvent {
  seq: number;
  type: string;
  data: unknown;
  at: number;
}

/** Where a reader is: `seq`, the highest number stored; `cursor`, the store's position after it. */
export interface LogPosition {
  seq: number;
  cursor: string;
}

export interface EventLog {
  /** Appends one run's events, given in sequence order. */
  append(runId: string, events: LoggedEvent[]): Promise<void>;
  /**
   * The position now (read it before the snapshot): `seq`, the highest number appended so far (as far
   * as the log can tell cheaply), each of whose events' states the snapshot then holds.
   */
  head(runId: string): Promise<LogPosition>;
  /**
   * The events after a cursor, in the order they were appended, and the cursor after them. Appends
   * from several processes can land out of number order: `missingAfter`, when the reader still waits
   * for numbers above it, makes a log whose cursor is a number read from there again (a log whose
   * cursor is its append order finds them after the cursor anyway). The cursor never goes back.
   */
  read(runId: string, cursor: string, missingAfter?: number): Promise<{ events: LoggedEvent[]; cursor: string }>;
  /**
   * Listens for the run's log to grow (an append anywhere) from now on. Armed before a read, an append
   * announced while the read is under way is not missed: its wait then resolves at once (else when the
   * log grows, after `ms`, or on abort). Always disposed of.
   */
  arm(runId: string): ArmedWakeup;
  /** Drops what no stream needs any more (a run that ended a while ago). */
  prune(): Promise<void>;
  /** How long a reader waits between reads when nothing wakes it. */
  readonly pollMs: number;
}

const sleepFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

const READ_LIMIT = 500;

class DatabaseEventLog implements EventLog {
  private readonly wakeups = new Wakeups((notify) => listenRunEvents(notify));
  private readonly notifies = runEventsNotify();
  /** LISTEN wakes readers at once; the read after the timeout only covers a lost connection. */
  readonly pollMs = this.notifies ? 2_000 : 150;

  append(runId: string, events: LoggedEvent[]): Promise<void> {
    return appendRunEvents(runId, events.map((e) => ({ runId, ...e })));
  }

  async head(runId: string): Promise<LogPosition> {
    const seq = await lastRunEventSeq(runId);
    return { seq, cursor: String(seq) };
  }

  async read(runId: string, cursor: string, missingAfter?: number) {
    const after = missingAfter === undefined ? Number(cursor) : Math.min(Number(cursor), missingAfter);
    const events = await runEventsAfter({ runId, after, limit: READ_LIMIT });
    return { events, cursor: String(Math.max(Number(cursor), events.at(-1)?.seq ?? 0)) };
  }

  arm(runId: string): ArmedWakeup {
    return this.notifies ? this.wakeups.arm(runId) : { wait: (ms, signal) => sleepFor(Math.min(ms, this.pollMs), signal), dispose: () => {} };
  }

  async prune(): Promise<void> {
    await pruneRunEvents({ before: new Date(Date.now() - KEEP_MS) });
  }
}

/** How long a run's events are kept after they were emitted, once it no longer runs. */
const KEEP_MS = 15 * 60_000;
/** How often a process that appends to a run's stream sets its expiry again. */
const EXPIRY_REFRESH_MS = 60_000;
/** Entries whose numbers `head` looks at (an inversion spans a batch or two). */
const HEAD_ENTRIES = 16;
const channel = () => redisKey("run-events");
const streamKey = (runId: string) => redisKey(`run-events:${runId}`);

class RedisEventLog implements EventLog {
  private readonly wakeups = new Wakeups((notify) => onRedisMessages([channel()], "run events", (_, runId) => notify(runId)));
  readonly pollMs = 2_000;
  /** When this process last set each stream's expiry. */
  private readonly expirySet = new Map<string, number>();

  async append(runId: string, events: LoggedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const key = streamKey(runId);
    // One entry for the batch, its events in order (a reader takes an entry whole): one command, not
    // one per event (a (5, 5) research has ~2,200). An entry of the earlier format (one event in the
    // fields seq, type, data, at) is still read.
    const batch = redis().pipeline();
    batch.xadd(key, "*", "events", JSON.stringify(events.map((e): EntryEvent => [e.seq, e.type, e.data ?? null, e.at])));
    // Kept while the run emits; gone a while after its last event (streams of an ended run start from
    // its final snapshot). Set once a minute, not with every batch: it expires 14–15 minutes after.
    const now = Date.now();
    if (now - (this.expirySet.get(key) ?? 0) >= EXPIRY_REFRESH_MS) {
      batch.pexpire(key, KEEP_MS);
      this.expirySet.set(key, now);
      for (const [k, at] of this.expirySet) if (now - at > KEEP_MS) this.expirySet.delete(k);
    }
    batch.publish(channel(), runId);
    const results = await batch.exec();
    const failed = results?.find(([error]) => error);
    if (failed) {
      this.expirySet.delete(key);
      throw failed[0];
    }
  }

  async head(runId: string): Promise<LogPosition> {
    // The highest number of the last few entries, not the last entry's: in queue mode an entry of
    // lower numbers can land just after one of higher numbers (each worker appends its own), and the
    // snapshot holds both; a follower starting from the lower would wait for numbers already read.
    const last = await redis().xrevrange(streamKey(runId), "+", "-", "COUNT", HEAD_ENTRIES);
    if (last.length === 0) return { seq: 0, cursor: "0-0" };
    return { seq: Math.max(0, ...last.flatMap(([, fields]) => eventsOf(fields).map((e) => e.seq))), cursor: last[0][0] };
  }

  async read(runId: string, cursor: string) {
    // Entries are in append order: numbers a reader misses are appended after its cursor.
    const entries = await redis().xrange(streamKey(runId), `(${cursor}`, "+", "COUNT", READ_LIMIT);
    return { events: entries.flatMap(([, fields]) => eventsOf(fields)), cursor: entries.at(-1)?.[0] ?? cursor };
  }

  arm(runId: string): ArmedWakeup {
    return this.wakeups.arm(runId);
  }

  async prune(): Promise<void> {
    // Each stream expires by itself.
  }
}

/** An event in a stream entry: [seq, type, data, at]. */
type EntryEvent = [number, string, unknown, number];

/** A stream entry's events, in order. */
function eventsOf(fields: string[]): LoggedEvent[] {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]] = fields[i + 1];
  if (f.events !== undefined) return (JSON.parse(f.events) as EntryEvent[]).map(([seq, type, data, at]) => ({ seq, type, data, at }));
  return [{ seq: Number(f.seq), type: f.type, data: JSON.parse(f.data) as unknown, at: Number(f.at) }];
}

const globalForLog = globalThis as unknown as { quarryEventLog?: EventLog };

/** The process's event log: Redis with REDIS_URL, else the database. */
export function eventLog(): EventLog {
  return (globalForLog.quarryEventLog ??= redisEnabled() ? new RedisEventLog() : new DatabaseEventLog());
}
