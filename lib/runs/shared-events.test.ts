// A run's events numbered in batches from the database (queue mode's node jobs): events close together
// share one reservation, and flushed() numbers what waits at once instead of after the batch's wait,
// so a job that ends does not hold its worker slot for it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { db } = await import("../db/client");
const { eventBus } = await import("../events/bus");
const { SharedSeqSink } = await import("./shared-events");

const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

test("events wait for their batch; flushed() numbers them at once, in order, each once", async () => {
  const research = await db.research.create({ data: { initialPrompt: "Batched event numbers", status: "running", depth: 1, breadth: 1 } });
  const run = await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  const topic = { kind: "tree" as const, subjectId: research.id };
  const seen: { seq: number; type: string }[] = [];
  const unsubscribe = eventBus.subscribe(topic, (e) => void seen.push({ seq: e.seq, type: e.type }));
  // A batch that would wait a minute.
  const sink = new SharedSeqSink(run.id, 60_000);
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
