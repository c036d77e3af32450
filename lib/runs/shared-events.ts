// Events of a run whose work is spread over several processes (queue mode's tree node jobs): no
// process holds a block of the run's numbers ahead of time; the events waiting in a process take
// their numbers from the database together once their states are written (one reservation per
// batch). Numbers then grow in the order the events' states were written across the fleet, and the
// run's log (a Redis stream, in queue mode) keeps them in the order they were appended: a stream that
// read the log's head before its snapshot misses nothing (an event numbered below the head has its
// state in the snapshot) and sees nothing twice.
import { reserveSeq } from "../db/runs";
import { BoundedMap } from "../bounded-map";
import { eventBus, type EngineEvent, type RunTopic } from "../events/bus";

/**
 * How long the first waiting event of a batch waits for others before the batch is numbered (a job
 * that ends numbers what waits at once: see flushed).
 */
const SEQ_BATCH_MS = 10;

export class SharedSeqSink {
  private waiting: { topic: RunTopic; event: EngineEvent }[] = [];
  /** The batch being numbered and emitted (one at a time, in order). */
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;
  private readonly topics = new Map<string, RunTopic>();
  /** Ends the waiting batch's wait now. */
  private hurry: (() => void) | undefined;
  /** Callers of flushed() waiting: batches are numbered without waiting meanwhile. */
  private flushing = 0;

  constructor(
    private readonly runId: string,
    private readonly batchMs = SEQ_BATCH_MS,
  ) {}

  emit(topic: RunTopic, event: EngineEvent): void {
    this.topics.set(`${topic.kind}:${topic.subjectId}`, topic);
    this.waiting.push({ topic, event });
    if (this.scheduled) return;
    this.scheduled = true;
    this.chain = this.chain
      // Events of the run's jobs in this process a few ms apart take their numbers together (the
      // analyses of a query's pages end within ms of each other): one reservation for them all.
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
        this.waiting = [];
        if (batch.length === 0) return;
        const first = await reserveSeq({ id: this.runId, block: batch.length });
        batch.forEach(({ topic, event }, i) => eventBus.emit(topic, event, { runId: this.runId, seq: first + i }));
      })
      .catch((error: unknown) => console.error(`[quarry] could not emit events of run ${this.runId}:`, error));
  }

  /**
   * Resolves once every event emitted so far is numbered, emitted and in the event log. What waits
   * for its batch is numbered now: a job that ends does not hold its worker slot for the batch's wait.
   */
  async flushed(): Promise<void> {
    this.flushing++;
    try {
      this.hurry?.();
      await this.chain;
    } finally {
      this.flushing--;
    }
    for (const topic of this.topics.values()) await eventBus.drain(topic);
  }
}

/** Runs' sinks in this process (an evicted one still works for its jobs; a new job gets a new one). */
const sinks = new BoundedMap<string, SharedSeqSink>(1_000);

/** The run's sink in this process, shared by its jobs here: their events are numbered together. */
export const sharedSeqSink = (runId: string): SharedSeqSink => sinks.getOrAdd(runId, () => new SharedSeqSink(runId));
