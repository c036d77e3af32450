// Events of a run whose work is spread over several processes (queue mode's tree node jobs): no
// process holds a block of the run's numbers, so each event takes the next number from the database
// when it is emitted, after its state was written. Numbers then grow in the order the events' states
// were written across the fleet, and the run's log (a Redis stream, in queue mode) keeps them in the
// order they were appended: a stream that read the log's head before its snapshot misses nothing
// (an event numbered below the head has its state in the snapshot) and sees nothing twice.
import { reserveSeq } from "../db/runs";
import { eventBus, type EngineEvent, type RunTopic } from "../events/bus";

export class SharedSeqSink {
  /** Emits in order, one number at a time. */
  private chain: Promise<void> = Promise.resolve();
  private readonly topics = new Map<string, RunTopic>();

  constructor(private readonly runId: string) {}

  emit(topic: RunTopic, event: EngineEvent): void {
    this.topics.set(`${topic.kind}:${topic.subjectId}`, topic);
    this.chain = this.chain
      .then(async () => {
        const seq = await reserveSeq({ id: this.runId, block: 1 });
        eventBus.emit(topic, event, { runId: this.runId, seq });
      })
      .catch((error: unknown) => console.error(`[quarry] could not emit an event of run ${this.runId}:`, error));
  }

  /** Resolves once every event emitted so far is numbered, emitted and in the event log. */
  async flushed(): Promise<void> {
    await this.chain;
    for (const topic of this.topics.values()) await eventBus.drain(topic);
  }
}
