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

test("on PostgreSQL an append tells the listeners of every instance (LISTEN/NOTIFY), once per append", { skip: !events.runEventsNotify() && "SQLite has no notifications" }, async () => {
  const heard: string[] = [];
  const stop = events.listenRunEvents((runId) => heard.push(runId));
  try {
    // LISTEN is on once a notification of our own comes back.
    const deadline = Date.now() + 10_000;
    while (!heard.includes("run-probe")) {
      assert.ok(Date.now() < deadline, "the listener connected");
      await events.appendRunEvents("run-probe", [event("run-probe", heard.length + 1)]);
      await new Promise((r) => setTimeout(r, 50));
    }
    heard.length = 0;
    await events.appendRunEvents("run-c", Array.from({ length: 1_100 }, (_, i) => event("run-c", i + 1)));
    const until = Date.now() + 5_000;
    while (!heard.includes("run-c") && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(heard, ["run-c"], "one notification for the append, after its rows");
    assert.equal((await events.runEventsAfter({ runId: "run-c", after: 0, limit: 5_000 })).length, 1_100);
  } finally {
    stop();
  }
});
