// The answer agent's storage against a real (migrated, temporary) database: SQLite, or PostgreSQL
// with TEST_DATABASE=postgres.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "./test-support";

await useTestDatabase();
const store = await import("./answers");

const base = { userId: null, question: "Q?", context: "", budget: 10_000, maxBadAttempt: 3, state: { step: 0 }, usage: {} };

test("a requestId is used once per owner: the owner's second create gets null, another user's succeeds", async () => {
  const { db } = await import("./client");
  const [alice, bob] = await Promise.all(["alice", "bob"].map((n) => db.user.create({ data: { email: `${n}-${Date.now()}@test.local`, passwordHash: "x" } })));
  assert.ok(await store.createAnswerRun({ ...base, requestId: "req-1" }));
  assert.equal(await store.createAnswerRun({ ...base, requestId: "req-1" }), null, "no owner: once too");
  const mine = await store.createAnswerRun({ ...base, userId: alice.id, requestId: "req-1" });
  assert.ok(mine, "an id taken by others is free for Alice: she learns nothing of theirs");
  assert.equal(await store.createAnswerRun({ ...base, userId: alice.id, requestId: "req-1" }), null);
  const bobs = await store.createAnswerRun({ ...base, userId: bob.id, requestId: "req-1" });
  assert.ok(bobs);
  assert.equal((await store.getAnswerRun({ requestId: "req-1", userId: alice.id }))?.id, mine.id);
  assert.equal((await store.getAnswerRun({ requestId: "req-1", userId: bob.id }))?.id, bobs.id, "lookups go by owner");
  assert.equal(await store.requestIdTaken({ requestId: "req-1", userId: alice.id }), true);
  assert.equal(await store.requestIdTaken({ requestId: "req-9", userId: alice.id }), false);
});

test("a step and the state after it are stored together, once; pages are stored once per URL", async () => {
  const run = (await store.createAnswerRun({ ...base, requestId: "req-2" }))!;
  const step = { runId: run.id, step: 1, seq: 7, action: "search", gap: "Q?", think: "t", payload: { searchQuery: ["q"] }, usage: {}, trackers: { step: 1 }, state: { step: 1 }, runUsage: { agent: 5 }, totalTokens: 5 };
  assert.equal(await store.saveAnswerStep(step), true);
  assert.equal(await store.saveAnswerStep({ ...step, seq: 8, state: { step: 99 } }), false);
  const row = (await store.loadAnswerRun(run.id))!;
  assert.deepEqual(JSON.parse(row.state), { step: 1 });
  assert.equal(row.totalTokens, 5);
  assert.equal((await store.answerSteps(run.id))[0].seq, 7, "stored with the number of its event");
  await store.saveAnswerPage({ runId: run.id, url: "https://a.example/", title: "A", content: "text" });
  await store.saveAnswerPage({ runId: run.id, url: "https://a.example/", title: "A", content: "other" });
  assert.deepEqual((await store.answerPages(run.id)).map((p) => p.content), ["text"]);
});

test("a cancelled run stays cancelled when the engine finishes after the cancel", async () => {
  const run = (await store.createAnswerRun({ ...base, requestId: "req-3" }))!;
  await store.markAnswerRunning(run.id);
  assert.equal(await store.markAnswerCancelled(run.id), true);
  assert.equal(await store.finishAnswerRun({ id: run.id, status: "completed", finalSeq: 3, answer: "A", usage: {}, totalTokens: 0 }), false);
  assert.equal((await store.getAnswerRun({ requestId: "req-3", userId: null }))!.status, "cancelled");
  assert.equal(await store.getAnswerRun({ requestId: "req-3", userId: "someone-else" }), null);
});

test("a user's running answer runs and recent starts are counted for the limits, others' not", async () => {
  const { db } = await import("./client");
  const user = await db.user.create({ data: { email: `limits-${Date.now()}@test.local`, passwordHash: "x" } });
  const since = new Date(Date.now() - 60_000);
  const counts = async () => ({ running: (await store.runningAnswerIds({ userId: user.id })).length, recent: (await store.listAnswerStartTimes({ userId: user.id, since, limit: 10 })).length });
  assert.deepEqual(await counts(), { running: 0, recent: 0 });
  const a = (await store.createAnswerRun({ ...base, userId: user.id, requestId: `lim-a-${user.id}` }))!;
  await store.createAnswerRun({ ...base, userId: user.id, requestId: `lim-b-${user.id}` });
  await store.createAnswerRun({ ...base, requestId: `lim-c-${user.id}` });
  await store.markAnswerRunning(a.id);
  await store.finishAnswerRun({ id: a.id, status: "completed", finalSeq: 1, usage: {}, totalTokens: 0 });
  assert.deepEqual(await counts(), { running: 1, recent: 2 });
  assert.equal((await store.listAnswerStartTimes({ userId: user.id, since, limit: 1 })).length, 1, "at most `limit`");
});
