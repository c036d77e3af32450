// Following a run that executes in this process: every event after the snapshot once, in order, and
// the follower ends at once when its client goes or the stream is stopped (not at its next poll). A
// run elsewhere: an append announced while the follower reads the log wakes it (not the log's poll).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { openRun, reserveSeq } = await import("../db/runs");
const { eventBus } = await import("../events/bus");
const { followRun } = await import("./live");
const { Wakeups } = await import("../wakeups");
type EventLog = import("../events/log").EventLog;
type LoggedEvent = import("../events/log").LoggedEvent;

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

test("a follower of a run elsewhere is woken by an append announced while it reads the log, not by the log's poll", async () => {
  const topic = { kind: "tree" as const, subjectId: "live-elsewhere" };
  await openRun({ ...topic, userId: null, mode: "tree" });
  const wakeups = new Wakeups(() => {});
  const stored: LoggedEvent[] = [];
  let raced = false;
  // The run's log, as another process appends to it: the first read's answer comes after the
  // announcement of an append it did not see (pub/sub and the read are two connections).
  const log: EventLog = {
    pollMs: 5_000,
    append: async () => {},
    head: async () => ({ seq: 0, cursor: "0" }),
    async read(runId, cursor) {
      const events = stored.filter((e) => e.seq > Number(cursor));
      if (events.length === 0 && !raced) {
        raced = true;
        stored.push({ seq: 1, type: "x", data: "appended during the read", at: Date.now() });
        wakeups.notify(runId);
      }
      return { events, cursor: events.length > 0 ? String(events.at(-1)!.seq) : cursor };
    },
    arm: (runId) => wakeups.arm(runId),
    prune: async () => {},
  };
  const global = globalThis as unknown as { quarryEventLog?: EventLog };
  const before = global.quarryEventLog;
  global.quarryEventLog = log;
  try {
    const followed = await followRun(topic, async () => "snapshot");
    assert.ok(followed);
    assert.equal(followed.seq, 0);
    const client = new AbortController();
    const at = performance.now();
    let data: unknown;
    for await (const e of followed.events(client.signal)) {
      data = e.data;
      break;
    }
    assert.equal(data, "appended during the read");
    assert.ok(performance.now() - at < 1_000, `the append was seen after ${Math.round(performance.now() - at)} ms (the log's poll: 5 s)`);
  } finally {
    global.quarryEventLog = before;
  }
});

test("a follower of a run elsewhere passes on events in number order when the log has them out of order", async () => {
  const topic = { kind: "tree" as const, subjectId: "live-inverted" };
  const run = await openRun({ ...topic, userId: null, mode: "tree" });
  const { eventLog } = await import("../events/log");
  const log = eventLog();
  const at = Date.now();
  const logged = (seq: number) => ({ seq, type: "x", data: seq, at });
  // Two workers' batches: the later numbers are appended first (the database log, read by number).
  await log.append(run.id, [1, 2].map(logged));
  const followed = await followRun(topic, async () => "snapshot");
  assert.ok(followed);
  assert.equal(followed.seq, 2);
  const client = new AbortController();
  const seen: number[] = [];
  const reading = (async () => {
    for await (const e of followed.events(client.signal)) {
      seen.push(e.seq);
      if (seen.length === 6) client.abort();
    }
  })();
  await log.append(run.id, [6, 7].map(logged));
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.deepEqual(seen, [], "6 and 7 wait for 3, 4 and 5");
  await log.append(run.id, [3, 4, 5].map(logged));
  await new Promise((resolve) => setTimeout(resolve, 400));
  await log.append(run.id, [8].map(logged));
  await reading;
  assert.deepEqual(seen, [3, 4, 5, 6, 7, 8]);
});

test("a follower holds an event for a missing number only for a bounded time", async () => {
  const topic = { kind: "tree" as const, subjectId: "live-gap" };
  const run = await openRun({ ...topic, userId: null, mode: "tree" });
  const { eventLog } = await import("../events/log");
  const log = eventLog();
  const followed = await followRun(topic, async () => "snapshot", { holdMs: 300 });
  assert.ok(followed);
  const client = new AbortController();
  const seen: number[] = [];
  const begun = performance.now();
  let waited = 0;
  const reading = (async () => {
    for await (const e of followed.events(client.signal)) {
      seen.push(e.seq);
      if (e.seq === 3) waited = performance.now() - begun;
      if (seen.length === 3) client.abort();
    }
  })();
  // 2 never comes (a process died holding it).
  await log.append(run.id, [1, 3].map((seq) => ({ seq, type: "x", data: seq, at: Date.now() })));
  setTimeout(() => void log.append(run.id, [{ seq: 4, type: "x", data: 4, at: Date.now() }]), 600);
  await reading;
  assert.deepEqual(seen, [1, 3, 4]);
  assert.ok(waited >= 250 && waited < 1_200, `3 went on after ${Math.round(waited)} ms (hold: 300 ms)`);
});

test("a follower of a run elsewhere does not wait for numbers its last process logged as unused", async () => {
  const topic = { kind: "tree" as const, subjectId: "live-skipped" };
  const run = await openRun({ ...topic, userId: null, mode: "tree" });
  const { eventLog } = await import("../events/log");
  const { SEQ_SKIPPED } = await import("../events/bus");
  const log = eventLog();
  const followed = await followRun(topic, async () => "snapshot", { holdMs: 30_000 });
  assert.ok(followed);
  const client = new AbortController();
  const seen: number[] = [];
  const reading = (async () => {
    for await (const e of followed.events(client.signal)) {
      seen.push(e.seq);
      if (seen.length === 3) client.abort();
    }
  })();
  // The first process emitted 1 and 2 of its block 1…1000 and handed the run off; the next numbers from 1001.
  await log.append(run.id, [1, 2].map((seq) => ({ seq, type: "x", data: seq, at: Date.now() })));
  await log.append(run.id, [{ seq: 1000, type: SEQ_SKIPPED, data: { from: 3 }, at: Date.now() }]);
  await log.append(run.id, [{ seq: 1001, type: "x", data: 1001, at: Date.now() }]);
  const begun = performance.now();
  await reading;
  assert.deepEqual(seen, [1, 2, 1001], "the record itself is no event");
  assert.ok(performance.now() - begun < 5_000, "no hold (30 s) was waited");
});

test("a run here: an event emitted under a number allocated earlier goes on before the later ones", async () => {
  const topic = await openHere("live-allocated");
  const followed = await followRun(topic, async () => "snapshot");
  assert.ok(followed);
  const client = new AbortController();
  const seen: unknown[] = [];
  const reading = (async () => {
    for await (const e of followed.events(client.signal)) {
      seen.push(e.data);
      if (seen.length === 3) client.abort();
    }
  })();
  const allocated = eventBus.allocate(topic);
  eventBus.emit(topic, { type: "x", data: "second" });
  await new Promise((resolve) => setTimeout(resolve, 50));
  eventBus.emit(topic, { type: "x", data: "first" }, allocated);
  eventBus.emit(topic, { type: "x", data: "third" });
  await reading;
  assert.deepEqual(seen, ["first", "second", "third"]);
  eventBus.close(topic);
});
