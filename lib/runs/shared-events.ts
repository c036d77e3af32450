// Events of a run whose work is spread over several processes (queue mode's tree node jobs): no
// process holds a block of the run's numbers ahead of time; the events waiting in a process take
// their numbers from the database together once their states are written (one reservation per
// batch). Numbers then grow in the order the events' states were written across the fleet, and the
// run's log (a Redis stream, in queue mode) keeps them in the order they were appended: a stream that
// read the log's head before its snapshot misses nothing (an event numbered below the head has its
// state in the snapshot) and sees nothing twice.
//
// The batch is the process's, not a run's: the waiting events of every run a worker serves are
// numbered in one statement (lib/db/runs.ts reserveSeqs), so that ten trees' node jobs on one worker
// do not each send their own reservation a few ms apart.
import { reserveSeqs } from "../db/runs";
import { BoundedMap } from "../bounded-map";
import { eventBus, type EngineEvent, type RunTopic } from "../events/bus";

/**
 * How long the first waiting event of a batch waits for others before the batch is numbered (a job
 * that ends numbers what waits at once: see flushed). Each batch is a locking update of the run's row
 * that every worker's batches queue on: a (5, 5) on 2 workers (with the bench's warm-up) sent ~640 of
 * them at 10 ms, ~470 at 25 ms. Clients see an event at most that much later.
 */
const SEQ_BATCH_MS = 25;

type Waiting = { topic: RunTopic; event: EngineEvent };

/** The events of this process's runs waiting for their numbers, numbered in batches, one at a time and in order. */
export class SeqBatcher {
  /** By run, each run's in the order they were emitted. */
  private waiting = new Map<string, Waiting[]>();
  /** The batch being numbered and emitted (one at a time, in order). */
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;
  /** Ends the waiting batch's wait now. */
  private hurry: (() => void) | undefined;
  /** Callers of flushed() waiting: batches are numbered without waiting meanwhile. */
  private flushing = 0;

  constructor(
    private readonly batchMs = SEQ_BATCH_MS,
    private readonly reserve: typeof reserveSeqs = reserveSeqs,
  ) {}

  add(runId: string, waiting: Waiting): void {
    const list = this.waiting.get(runId);
    if (list) list.push(waiting);
    else this.waiting.set(runId, [waiting]);
    if (this.scheduled) return;
    this.scheduled = true;
    this.chain = this.chain
      // Events a few ms apart take their numbers together (the analyses of a query's pages end within
      // ms of each other, and so do other trees' node jobs): one reservation for them all.
      .then(
        () =>
          new Promise<void>((resolve) => {
            if (this.flushing > 0) return resolve();
            const timer = setTimeout(resolve, this.batchMs);
            this.hurry = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
      )
      .then(async () => {
        this.hurry = undefined;
        this.scheduled = false;
        const batch = this.waiting;
        this.waiting = new Map();
        if (batch.size === 0) return;
        let last: Map<string, number>;
        try {
          last = await this.reserve(new Map([...batch].map(([runId, events]) => [runId, events.length])));
        } catch (error) {
          console.error(`[quarry] could not number the events of run(s) ${[...batch.keys()].join(", ")}:`, error);
          return;
        }
        // Each run's events on their own: one run's failure is not another's.
        for (const [runId, events] of batch) {
          const end = last.get(runId);
          try {
            if (end === undefined) throw new Error("no such run");
            const first = end - events.length + 1;
            events.forEach(({ topic, event }, i) => eventBus.emit(topic, event, { runId, seq: first + i }));
          } catch (error) {
            console.error(`[quarry] could not emit events of run ${runId}:`, error);
          }
        }
      })
      .catch((error: unknown) => console.error("[quarry] could not emit events:", error));
  }

  /** Resolves once every event added so far is numbered and emitted; what waits is numbered now. */
  async flushed(): Promise<void> {
    this.flushing++;
    try {
      this.hurry?.();
      await this.chain;
    } finally {
      this.flushing--;
    }
  }
}

/** The process's batcher, shared by every run's sink. */
const processBatcher = new SeqBatcher();

export class SharedSeqSink {
  private readonly topics = new Map<string, RunTopic>();

  constructor(
    private readonly runId: string,
    private readonly batcher: SeqBatcher = processBatcher,
  ) {}

  emit(topic: RunTopic, event: EngineEvent): void {
    this.topics.set(`${topic.kind}:${topic.subjectId}`, topic);
    this.batcher.add(this.runId, { topic, event });
  }

  /**
   * Resolves once every event emitted so far is numbered, emitted and in the event log. What waits
   * for its batch is numbered now: a job that ends does not hold its worker slot for the batch's wait.
   */
  async flushed(): Promise<void> {
    await this.batcher.flushed();
    for (const topic of this.topics.values()) await eventBus.drain(topic);
  }
}

/** Runs' sinks in this process (an evicted one still works for its jobs; a new job gets a new one). */
const sinks = new BoundedMap<string, SharedSeqSink>(1_000);

/** The run's sink in this process, shared by its jobs here: their events are numbered together. */
export const sharedSeqSink = (runId: string): SharedSeqSink => sinks.getOrAdd(runId, () => new SharedSeqSink(runId));
