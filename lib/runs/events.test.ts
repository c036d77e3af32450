// The number a stream's snapshot is current to: never the database's reserved ceiling while a run
// is being opened in this process (a stream would drop every event of that run as "older").
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { openRun, reserveSeq } = await import("../db/runs");
const { eventBus } = await import("../events/bus");
const { currentSeq, trackOpening } = await import("./events");

test("a snapshot taken between the reservation and the open uses the run's own number", async () => {
  const topic = { kind: "tree" as const, subjectId: "subject-1" };
  const run = await openRun({ ...topic, userId: null, mode: "tree" });
  let reserved!: () => void;
  const afterReserve = new Promise<void>((resolve) => (reserved = resolve));
  let letOpen!: () => void;
  const mayOpen = new Promise<void>((resolve) => (letOpen = resolve));
  const opened = (async () => {
    const firstSeq = await reserveSeq({ id: run.id, block: 1000 });
    reserved();
    await mayOpen;
    eventBus.open(topic, { runId: run.id, firstSeq, blockSize: 1000, reserve: () => reserveSeq({ id: run.id, block: 1000 }) });
  })();
  const tracking = trackOpening(topic, opened);
  await afterReserve;
  const seq = currentSeq(topic);
  letOpen();
  assert.equal(await seq, 0, "not the reserved ceiling (1000)");
  assert.equal(eventBus.emit(topic, { type: "x", data: null }).seq, 1, "the run's first event is newer than the snapshot");
  eventBus.close(topic);
  tracking.forget();
  await eventBus.drain(topic);
  // A run not here: the last number the event log accounts for: its event 1, then 2…1000, which the closed
  // topic logged as never to be used (the next process numbers from 1001, newer than that).
  assert.equal(await currentSeq(topic), 1000, "a run not here: the last number in the event log");
});
