// A run's events numbered in batches from the database (queue mode's node jobs): events close together
// share one reservation, those of several runs too, and flushed() numbers what waits at once instead
// of after the batch's wait, so a job that ends does not hold its worker slot for it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { db } = await import("../db/client");
const { eventBus } = await import("../events/bus");
const { SeqBatcher, SharedSeqSink } = await import("./shared-events");
const { reserveSeqs } = await import("../db/runs");

const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

test("events wait for their batch; flushed() numbers them at once, in order, each once", async () => {
  const research = await db.research.create({ data: { initialPrompt: "Batched event numbers", status: "running", depth: 1, breadth: 1 } });
  const run = await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  const topic = { kind: "tree" as const, subjectId: research.id };
  const seen: { seq: number; type: string }[] = [];
  const unsubscribe = eventBus.subscribe(topic, (e) => void seen.push({ seq: e.seq, type: e.type }));
  // A batch that would wait a minute.
  const sink = new SharedSeqSink(run.id, new SeqBatcher(60_000));
  for (const n of [1, 2, 3]) sink.emit(topic, { type: "query.status", data: { n } });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(seen.length, 0, "the batch waits for more");
  await within(5_000, sink.flushed());
  assert.equal(seen.length, 3, "numbered and emitted at the flush");
  // Later events batch again.
  sink.emit(topic, { type: "page.status", data: {} });
  sink.emit(topic, { type: "page.status", data: {} });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(seen.length, 3);
  await within(5_000, sink.flushed());
  unsubscribe();
  assert.equal(seen.length, 5);
  const seqs = seen.map((e) => e.seq);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "in order");
  assert.equal(new Set(seqs).size, 5, "each number once");
  assert.ok((await db.run.findUniqueOrThrow({ where: { id: run.id } })).seq >= Math.max(...seqs));
});

test("the waiting events of several runs take their numbers in one reservation, each run's in order; a run with no row loses only its own", async () => {
  const runs = await Promise.all(
    [1, 2].map(async (n) => {
      const research = await db.research.create({ data: { initialPrompt: `Batched runs ${n}`, status: "running", depth: 1, breadth: 1 } });
      const run = await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running", seq: 10 * n } });
      return { run, topic: { kind: "tree" as const, subjectId: research.id } };
    }),
  );
  const reservations: string[][] = [];
  const batcher = new SeqBatcher(60_000, async (blocks) => {
    reservations.push([...blocks.keys()]);
    return reserveSeqs(blocks);
  });
  const seen = new Map<string, number[]>();
  const unsubscribes = runs.map(({ topic }) => eventBus.subscribe(topic, (e) => void seen.set(topic.subjectId, [...(seen.get(topic.subjectId) ?? []), e.seq])));
  const sinks = runs.map(({ run }) => new SharedSeqSink(run.id, batcher));
  const gone = new SharedSeqSink("no-such-run", batcher);
  gone.emit({ kind: "tree", subjectId: "no-such-research" }, { type: "query.status", data: {} });
  for (let i = 0; i < 3; i++) sinks.forEach((sink, n) => sink.emit(runs[n].topic, { type: "query.status", data: { i } }));
  await within(5_000, sinks[0].flushed());
  unsubscribes.forEach((u) => u());
  assert.equal(reservations.length, 1, "one reservation for both runs (and the missing one)");
  assert.deepEqual(seen.get(runs[0].topic.subjectId), [11, 12, 13]);
  assert.deepEqual(seen.get(runs[1].topic.subjectId), [21, 22, 23]);
  for (const [n, { run }] of runs.entries()) assert.equal((await db.run.findUniqueOrThrow({ where: { id: run.id } })).seq, 10 * (n + 1) + 3);
});
