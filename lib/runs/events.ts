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

const keyOf = (topic: RunTopic) => `${topic.kind}:${topic.subjectId}`;
/**
 * Topics this process is opening (their block reserved in the database, the bus not yet open), until
 * closed. On globalThis, like the bus: the route that starts a run and the one that streams it may be
 * separate bundles, each with its own copy of this module.
 */
const globalForOpening = globalThis as unknown as { quarryOpeningTopics?: Map<string, Promise<void>> };
const opening = (globalForOpening.quarryOpeningTopics ??= new Map());

/**
 * Marks the topic as opening here from before its block is reserved until `forget` is called, so
 * that `currentSeq` never takes the database's reserved ceiling for the number a run here is at.
 */
export function trackOpening(topic: RunTopic, opened: Promise<void>): { forget: () => void } {
  opening.set(keyOf(topic), opened);
  return { forget: () => opening.get(keyOf(topic)) === opened && opening.delete(keyOf(topic)) };
}

/**
 * The sequence number a snapshot read now is current to: this process's, or the database's. The
 * database holds the ceiling of the blocks reserved: read while a run here is being opened, it would
 * be above every event that run is about to emit (and a stream would drop them all), so a run being
 * opened here is waited for and its own number used.
 */
export async function currentSeq(topic: RunTopic): Promise<number> {
  const here = async () => {
    const pending = opening.get(keyOf(topic));
    if (pending) await pending.catch(() => undefined);
    return eventBus.currentSeq(topic);
  };
  const before = await here();
  if (before !== undefined) return before;
  const stored = (await getRun(topic))?.seq ?? 0;
  // The run may have begun opening here while the database was read.
  return (await here()) ?? stored;
}
