// The stored event log against a real (migrated, temporary) database: SQLite, or PostgreSQL with
// TEST_DATABASE=postgres. An append stores each number once (a number stored before keeps its first
// row), however many events one append carries.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "./test-support";

await useTestDatabase();
const events = await import("./run-events");

const event = (runId: string, seq: number, label = "first") => ({ runId, seq, type: "query.status", data: { label, seq }, at: 1_700_000_000_000.5 + seq });

test("appends keep each number's first row, in order", async () => {
  await events.appendRunEvents("run-a", [1, 2, 3].map((seq) => event("run-a", seq)));
  await events.appendRunEvents("run-a", [2, 3, 4].map((seq) => event("run-a", seq, "again")));
  const stored = await events.runEventsAfter({ runId: "run-a", after: 0 });
  assert.deepEqual(stored, [event("run-a", 1), event("run-a", 2), event("run-a", 3), event("run-a", 4, "again")]);
  assert.equal(await events.lastRunEventSeq("run-a"), 4);
});

test("one append of more events than one statement carries stores them all", async () => {
  const many = Array.from({ length: 1_234 }, (_, i) => event("run-b", i + 1));
  await events.appendRunEvents("run-b", many);
  await events.appendRunEvents("run-b", many.slice(600, 700).map((e) => ({ ...e, type: "changed" })));
  const stored = await events.runEventsAfter({ runId: "run-b", after: 0, limit: 5_000 });
  assert.deepEqual(stored, many);
  assert.deepEqual(await events.runEventsAfter({ runId: "run-a", after: 3 }), [event("run-a", 4, "again")]);
});
