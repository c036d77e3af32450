// Emitting a run's event from a process that is not running it (a cancel's final status, for
// one): its sequence number is reserved in the database, after every number any process used.
import { getRun, reserveSeq } from "../db/runs";
import { eventBus, type EngineEvent, type RunTopic } from "../events/bus";
import { eventLog, type LogPosition } from "../events/log";

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
 * Where a stream starts, read before its snapshot: the number the snapshot is current to and, for
 * following the run from another process, the event log's position. For a run here (or being opened
 * here: the database then holds the new block's ceiling, above every event that run is about to
 * emit) this process's number; for a run elsewhere, the last number in the event log, which its
 * owner appends in order up to its own current number.
 */
export async function followPosition(topic: RunTopic): Promise<{ seq: number; runId: string | null; log: LogPosition | null }> {
  const here = async () => {
    const pending = opening.get(keyOf(topic));
    if (pending) await pending.catch(() => undefined);
    return eventBus.currentSeq(topic);
  };
  const before = await here();
  const run = await getRun(topic);
  const log = run ? await eventLog().head(run.id) : null;
  // The run may have begun opening here while the database was read.
  const seq = before ?? (await here()) ?? log?.seq ?? 0;
  return { seq, runId: run?.id ?? null, log };
}

/** The sequence number a snapshot read now is current to (see followPosition). */
export async function currentSeq(topic: RunTopic): Promise<number> {
  return (await followPosition(topic)).seq;
}
