// Emitting a run's event from a process that is not running it (a cancel's final status, for
// one): its sequence number is reserved in the database, after every number any process used.
import { getRun, reserveSeq } from "../db/runs";
import { eventBus, type EngineEvent, type RunTopic } from "../events/bus";

export async function emitOutsideRun(topic: RunTopic, event: EngineEvent): Promise<void> {
  if (eventBus.currentSeq(topic) !== undefined) {
    eventBus.emit(topic, event);
    return;
  }
  const run = await getRun(topic);
  if (!run) return;
  eventBus.emit(topic, event, { runId: run.id, seq: await reserveSeq({ id: run.id, block: 1 }) });
}

/** The sequence number a snapshot read now is current to: this process's, or the database's. */
export async function currentSeq(topic: RunTopic): Promise<number> {
  return eventBus.currentSeq(topic) ?? (await getRun(topic))?.seq ?? 0;
}
