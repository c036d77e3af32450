import { test } from "node:test";
import assert from "node:assert/strict";
import { InProcessEventBus, SEQ_SKIPPED } from "./bus";

const topic = { kind: "tree" as const, subjectId: "r1" };

test("events are numbered from reserved blocks; the next block is reserved half-way, before it is needed", async () => {
  const bus = new InProcessEventBus();
  let top = 100;
  const reserve = async () => {
    const first = top + 1;
    top += 10;
    return first;
  };
  bus.open(topic, { runId: "run1", firstSeq: await reserve(), blockSize: 10, reserve });
  const seen: number[] = [];
  bus.subscribe(topic, (e) => seen.push(e.seq));
  for (let i = 0; i < 6; i++) bus.emit(topic, { type: "x", data: i });
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 10; i++) bus.emit(topic, { type: "x", data: i });
  assert.deepEqual(seen, Array.from({ length: 16 }, (_, i) => 101 + i));
  assert.equal(bus.currentSeq(topic), 116);
});

test("a slow reservation never makes numbering go back or repeat", async () => {
  const bus = new InProcessEventBus();
  let release: (n: number) => void = () => {};
  const reserve = () => new Promise<number>((r) => (release = r));
  bus.open(topic, { runId: "run1", firstSeq: 1, blockSize: 4, reserve });
  const seen: number[] = [];
  bus.subscribe(topic, (e) => seen.push(e.seq));
  for (let i = 0; i < 6; i++) bus.emit(topic, { type: "x", data: i });
  release(5);
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 3; i++) bus.emit(topic, { type: "x", data: i });
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test("an event of a run that is not open here needs its number from the caller; envelopes carry run, kind and subject", () => {
  const bus = new InProcessEventBus();
  assert.throws(() => bus.emit(topic, { type: "x", data: 1 }), /is open in this process/);
  const e = bus.emit(topic, { type: "run.status", data: { status: "cancelled" } }, { runId: "run1", seq: 42 });
  assert.deepEqual({ runId: e.runId, kind: e.kind, subjectId: e.subjectId, seq: e.seq, type: e.type, data: e.data }, {
    runId: "run1", kind: "tree", subjectId: "r1", seq: 42, type: "run.status", data: { status: "cancelled" },
  });
  assert.equal(bus.currentSeq(topic), undefined);
});

test("an allocated number is the next one, and currentSeq stays below it until its event is emitted", () => {
  const bus = new InProcessEventBus();
  bus.open(topic, { runId: "run1", firstSeq: 1, blockSize: 100, reserve: async () => 101 });
  const seen: number[] = [];
  bus.subscribe(topic, (e) => seen.push(e.seq));
  bus.emit(topic, { type: "x", data: 0 });
  const a = bus.allocate(topic);
  assert.deepEqual(a, { runId: "run1", seq: 2 });
  assert.equal(bus.currentSeq(topic), 1, "a snapshot read now must not claim 2: its event is still to come");
  bus.emit(topic, { type: "x", data: 1 });
  assert.equal(bus.currentSeq(topic), 1, "3 went out, but 2 has not");
  bus.emit(topic, { type: "step", data: 2 }, a);
  assert.equal(bus.currentSeq(topic), 3);
  assert.deepEqual(seen, [1, 3, 2]);
  assert.throws(() => new InProcessEventBus().allocate(topic), /is open in this process/);
});

test("events go to the event log in sequence order: a number allocated and not yet emitted holds the later ones back", async () => {
  const appended: number[][] = [];
  const log = { append: async (_runId: string, events: { seq: number }[]) => void appended.push(events.map((e) => e.seq)) } as unknown as import("./log").EventLog;
  const bus = new InProcessEventBus(async () => log);
  bus.open(topic, { runId: "run1", firstSeq: 1, blockSize: 1000, reserve: async () => 1001 });
  bus.emit(topic, { type: "x", data: 1 });
  const step = bus.allocate(topic); // 2, stored with its step before it goes out
  bus.emit(topic, { type: "x", data: 3 });
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(appended.flat(), [1], "3 waits for 2");
  bus.emit(topic, { type: "step", data: 2 }, step);
  await bus.drain(topic);
  assert.deepEqual(appended.flat(), [1, 2, 3]);
  bus.close(topic);
  // Emitted by a process not running the run (a cancel's end): appended at once. (1000: the block's rest, 4…1000, logged as skipped.)
  bus.emit(topic, { type: "end", data: null }, { runId: "run1", seq: 5000 });
  await bus.drain(topic);
  assert.deepEqual(appended.flat(), [1, 2, 3, 1000, 5000]);
});

test("a topic closed with numbers of its blocks unused logs them as skipped, after its events", async () => {
  const appended: { seq: number; type: string; data: unknown }[][] = [];
  const log = { append: async (_runId: string, events: { seq: number; type: string; data: unknown }[]) => void appended.push(events.map(({ seq, type, data }) => ({ seq, type, data }))) } as unknown as import("./log").EventLog;
  const bus = new InProcessEventBus(async () => log);
  const reserved = Promise.withResolvers<number>();
  bus.open(topic, { runId: "run1", firstSeq: 1, blockSize: 10, reserve: () => reserved.promise });
  for (let i = 1; i <= 6; i++) bus.emit(topic, { type: "x", data: i });
  // Half-way through the block the next one was reserved: 31…40.
  reserved.resolve(31);
  await new Promise((r) => setTimeout(r, 0));
  bus.close(topic);
  await bus.drain(topic);
  const all = appended.flat();
  assert.deepEqual(all.map((e) => e.seq), [1, 2, 3, 4, 5, 6, 10, 40]);
  assert.deepEqual(all.slice(-2), [
    { seq: 10, type: SEQ_SKIPPED, data: { from: 7 } },
    { seq: 40, type: SEQ_SKIPPED, data: { from: 31 } },
  ]);
});
