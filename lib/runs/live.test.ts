// Following a run that executes in this process: every event after the snapshot once, in order, and
// the follower ends at once when its client goes or the stream is stopped (not at its next poll).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { openRun, reserveSeq } = await import("../db/runs");
const { eventBus } = await import("../events/bus");
const { followRun } = await import("./live");

async function openHere(subjectId: string) {
  const topic = { kind: "tree" as const, subjectId };
  const run = await openRun({ ...topic, userId: null, mode: "tree" });
  const firstSeq = await reserveSeq({ id: run.id, block: 1000 });
  eventBus.open(topic, { runId: run.id, firstSeq, blockSize: 1000, reserve: () => reserveSeq({ id: run.id, block: 1000 }) });
  return topic;
}

test("a follower gets every event after its snapshot once, in order, while it waits between them", async () => {
  const topic = await openHere("live-1");
  eventBus.emit(topic, { type: "before", data: 0 });
  const followed = await followRun(topic, async () => "snapshot");
  assert.ok(followed);
  assert.equal(followed.seq, 1, "the snapshot is current to the first event");
  const client = new AbortController();
  const seen: unknown[] = [];
  const reading = (async () => {
    for await (const e of followed.events(client.signal)) {
      seen.push(e.data);
      if (seen.length === 50) client.abort();
    }
  })();
  for (let i = 1; i <= 50; i++) {
    eventBus.emit(topic, { type: "x", data: i });
    // Every other event after the follower has gone back to waiting.
    if (i % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await reading;
  assert.deepEqual(seen, Array.from({ length: 50 }, (_, i) => i + 1));
  eventBus.close(topic);
});

test("a follower waiting for the next event ends at once when its client goes, and when it is stopped", async () => {
  const topic = await openHere("live-2");
  for (const end of ["client", "stop"] as const) {
    const followed = await followRun(topic, async () => "snapshot");
    assert.ok(followed);
    const client = new AbortController();
    const reading = (async () => {
      for await (const _ of followed.events(client.signal)) assert.fail("no event was emitted");
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const at = performance.now();
    if (end === "client") client.abort();
    else followed.stop();
    await reading;
    // The wait's own timeout is a second for a run here: ending it is the abort's doing.
    assert.ok(performance.now() - at < 120, `${end}: ended after ${Math.round(performance.now() - at)} ms`);
  }
  eventBus.close(topic);
});
