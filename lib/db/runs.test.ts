// Run rows against a real (migrated, temporary) database: SQLite, or PostgreSQL with
// TEST_DATABASE=postgres. A run's end is a compare-and-set; the owner's cancel poll reads every run
// it executes in one query and tells cancelled ones from deleted ones; a delete waits on runStopped.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "./test-support";

await useTestDatabase();
const { db } = await import("./client");
const runs = await import("./runs");

const OWNER = "host:1:aaaa";
const LEASE_MS = 30_000;

async function claimed(subjectId: string) {
  const run = await runs.openRun({ kind: "tree", subjectId, userId: null, mode: "tree" });
  assert.equal(await runs.claimRun({ id: run.id, owner: OWNER, leaseMs: LEASE_MS }), true);
  return run;
}

test("a run's end never overwrites another end", async () => {
  const run = await claimed("s-end");
  assert.equal(await runs.finishRun({ id: run.id, owner: OWNER, status: "cancelled" }), true);
  // The owner's late "completed" (its engine ended as the cancel came in) changes nothing.
  assert.equal(await runs.finishRun({ id: run.id, owner: OWNER, status: "completed" }), false);
  assert.equal((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status, "cancelled");
});

test("the cancel poll: one read tells the cancelled runs and the deleted ones from the others", async () => {
  const [going, cancelled, deleted] = await Promise.all([claimed("s-going"), claimed("s-cancelled"), claimed("s-deleted")]);
  await runs.requestCancel({ kind: "tree", subjectId: "s-cancelled" });
  await runs.deleteRunsOf({ kind: "tree", subjectId: "s-deleted" });
  assert.deepEqual(await runs.runsToStop({ ids: [going.id, cancelled.id, deleted.id] }), { cancelled: [cancelled.id], gone: [deleted.id] });
  assert.deepEqual(await runs.runsToStop({ ids: [] }), { cancelled: [], gone: [] });
});

test("a heartbeat no longer holds a run that was deleted", async () => {
  const run = await claimed("s-beat");
  assert.deepEqual(await runs.heartbeatRun({ id: run.id, owner: OWNER, leaseMs: LEASE_MS }), { held: true });
  await runs.deleteRunsOf({ kind: "tree", subjectId: "s-beat" });
  assert.deepEqual(await runs.heartbeatRun({ id: run.id, owner: OWNER, leaseMs: LEASE_MS }), { held: false });
});

test("a run is stopped once it ended, has no row, or no live lease holds it; not while its owner holds it", async () => {
  const topic = { kind: "tree" as const, subjectId: "s-stop" };
  const run = await claimed(topic.subjectId);
  await runs.requestCancel(topic);
  assert.equal(await runs.runStopped(topic), false, "its owner still holds it (it is stopping)");
  assert.equal(await runs.runStopped({ ...topic, now: new Date(Date.now() + LEASE_MS + 1_000) }), true, "its owner died: the lease ran out");
  await runs.finishRun({ id: run.id, owner: OWNER, status: "cancelled" });
  assert.equal(await runs.runStopped(topic), true);
  assert.equal(await runs.runStopped({ kind: "tree", subjectId: "never-run" }), true);
  await runs.openRun({ kind: "tree", subjectId: "s-queued", userId: null, mode: "tree" });
  assert.equal(await runs.runStopped({ kind: "tree", subjectId: "s-queued" }), true, "queued, never claimed: nobody writes it");
});

test("a run just opened is its opener's to claim: another process's sweep takes it only after a lease", async () => {
  const run = await runs.openRun({ kind: "tree", subjectId: "s-opened", userId: null, mode: "tree" });
  const orphaned = async (now?: Date) => (await runs.orphanedRuns({ now })).some((r) => r.id === run.id);
  assert.equal(await orphaned(), false, "the opener claims it in a moment: no sweep races it");
  assert.equal(await orphaned(new Date(Date.now() + runs.runLeaseMs() + 1_000)), true, "its opener died before claiming it");
  // The opener claims it although its grace has not run out.
  assert.equal(await runs.claimRun({ id: run.id, owner: OWNER, leaseMs: LEASE_MS }), true);
  assert.equal((await db.run.findUniqueOrThrow({ where: { id: run.id } })).leaseOwner, OWNER);
});

test("a run's user and that user's live runs (the queue's fair rank), in one read", async () => {
  const user = await db.user.create({ data: { email: `live-runs-${Date.now()}@example.com`, passwordHash: "x" } });
  const open = (subjectId: string, userId: string | null) => runs.openRun({ kind: "tree", subjectId, userId, mode: "tree" });
  await open("s-live-1", user.id);
  const second = await open("s-live-2", user.id);
  await open("s-live-3", user.id);
  await open("s-live-other", null);
  assert.deepEqual(await runs.liveRunsOfUser({ kind: "tree", subjectId: "s-live-1" }), { userId: user.id, live: 3 });
  // An ended run no longer counts.
  assert.equal(await runs.claimRun({ id: second.id, owner: OWNER, leaseMs: LEASE_MS }), true);
  assert.equal(await runs.finishRun({ id: second.id, owner: OWNER, status: "completed" }), true);
  assert.deepEqual(await runs.liveRunsOfUser({ kind: "tree", subjectId: "s-live-1" }), { userId: user.id, live: 2 });
  assert.deepEqual(await runs.liveRunsOfUser({ kind: "tree", subjectId: "s-live-other" }), { userId: null, live: 0 });
  assert.equal(await runs.liveRunsOfUser({ kind: "tree", subjectId: "s-none" }), null);
});

test("a claim takes a free, own or expired lease only; it counts the attempt, keeps the first start, and clears a pause and a hand-off", async () => {
  const run = await claimed("s-claim");
  const other = "host:2:bbbb";
  const first = await runs.getRun({ kind: "tree", subjectId: "s-claim" });
  assert.ok(first?.startedAt instanceof Date && first.leaseExpiresAt instanceof Date);
  assert.equal(first.attempt, 1);
  assert.equal(await runs.claimRun({ id: run.id, owner: other, leaseMs: LEASE_MS }), false, "another process's live lease");
  await runs.setRunsPaused({ ids: [run.id], owner: OWNER, paused: { reason: "The LLM provider is down", since: new Date() } });
  assert.equal((await runs.getRun({ kind: "tree", subjectId: "s-claim" }))?.pauseReason, "The LLM provider is down");
  await runs.setRunsPaused({ ids: [run.id], owner: other, paused: null });
  assert.equal((await runs.getRun({ kind: "tree", subjectId: "s-claim" }))?.pauseReason, "The LLM provider is down", "only its owner changes it");
  // The owner died: its lease ran out and another process takes the run over.
  const later = new Date(Date.now() + LEASE_MS + 1_000);
  assert.equal(await runs.claimRun({ id: run.id, owner: other, leaseMs: LEASE_MS, now: later }), true);
  const taken = await runs.getRun({ kind: "tree", subjectId: "s-claim" });
  assert.deepEqual(
    { owner: taken?.leaseOwner, attempt: taken?.attempt, startedAt: taken?.startedAt, pausedAt: taken?.pausedAt, pauseReason: taken?.pauseReason, expires: taken?.leaseExpiresAt?.getTime() },
    { owner: other, attempt: 2, startedAt: first.startedAt, pausedAt: null, pauseReason: null, expires: later.getTime() + LEASE_MS },
  );
  assert.deepEqual(await runs.heartbeatRun({ id: run.id, owner: OWNER, leaseMs: LEASE_MS }), { held: false }, "the old owner no longer holds it");
  // A hand-off (queue mode) frees the lease for the next job's claim and records when.
  assert.equal(await runs.handOffRun({ id: run.id, owner: other }), true);
  const handed = await runs.getRun({ kind: "tree", subjectId: "s-claim" });
  assert.equal(handed?.leaseOwner, null);
  assert.ok(handed?.handoffAt instanceof Date);
  assert.equal(await runs.claimRun({ id: run.id, owner: OWNER, leaseMs: LEASE_MS }), true);
  assert.equal((await runs.getRun({ kind: "tree", subjectId: "s-claim" }))?.handoffAt, null);
  assert.equal(await runs.finishRun({ id: run.id, owner: other, status: "completed" }), false, "not its owner's");
  assert.equal(await runs.finishRun({ id: run.id, owner: OWNER, status: "failed", error: "it broke" }), true);
  const ended = await runs.getRun({ kind: "tree", subjectId: "s-claim" });
  assert.equal(ended?.status, "failed");
  assert.equal(ended?.error, "it broke");
  assert.ok(ended?.completedAt instanceof Date);
  assert.equal(ended?.leaseOwner, null);
  assert.equal(await runs.claimRun({ id: run.id, owner: OWNER, leaseMs: LEASE_MS }), false, "an ended run");
  assert.deepEqual(await runs.getRun({ kind: "tree", subjectId: "s-claim" }), await db.run.findUnique({ where: { id: run.id } }), "the same row as Prisma's model API reads it");
});
