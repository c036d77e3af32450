import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { AppError } from "../errors";

await useTestDatabase();
process.env.RATE_LIMIT_STARTS_PER_HOUR = "3";
process.env.MAX_CONCURRENT_RUNS_PER_USER = "2";
process.env.MAX_CONCURRENT_PLANNING_CALLS_PER_USER = "2";
process.env.RATE_LIMIT_PLANNING_CALLS_PER_HOUR = "3";
const { db } = await import("../db/client");
const { assertWithinLimits, slotWaitSeconds, startWithinLimits } = await import("./limits");

const status = (e: unknown) => e instanceof AppError && e.type === "rate_limit" && (e.retryAfterSeconds ?? 0) > 0;

test("concurrent running researches are capped per user", async () => {
  const user = await db.user.create({ data: { email: "runner@example.com", passwordHash: "x" } });
  const other = await db.user.create({ data: { email: "other@example.com", passwordHash: "x" } });
  const old = new Date(Date.now() - 2 * 3_600_000);
  await db.research.createMany({ data: [0, 1].map(() => ({ userId: user.id, initialPrompt: "p", status: "running", startedAt: old })) });
  await assert.rejects(assertWithinLimits({ userId: user.id, pool: "research" }), (e: { code?: string }) => status(e) && e.code === "rate_limit:concurrent_runs");
  await assertWithinLimits({ userId: other.id, pool: "research" });
});

test("a run counts until its Run row ends, though its research or answer reads as ended (the row ends last)", async () => {
  const user = await db.user.create({ data: { email: "draining@example.com", passwordHash: "x" } });
  // One research running, one completed whose run row still runs (its last events going out): full.
  const [running, ended] = await Promise.all(["running", "completed"].map((s) => db.research.create({ data: { userId: user.id, initialPrompt: "p", status: s, startedAt: new Date() } })));
  await db.run.create({ data: { kind: "tree", subjectId: running.id, userId: user.id, status: "running" } });
  await db.run.create({ data: { kind: "tree", subjectId: ended.id, userId: user.id, status: "running" } });
  await assert.rejects(assertWithinLimits({ userId: user.id, pool: "research" }), (e: { code?: string; message?: string }) => e.code === "rate_limit:concurrent_runs" && /You already have 2 researches/.test(e.message ?? ""));
  // A Deep Research task's tree (a child run) is its conversation's, not a run of its own.
  await db.run.update({ where: { kind_subjectId: { kind: "tree", subjectId: ended.id } }, data: { status: "completed" } });
  await db.run.create({ data: { kind: "tree", subjectId: "child-tree", userId: user.id, status: "running", parentRunId: "some-run" } });
  await assertWithinLimits({ userId: user.id, pool: "research" });
  // Answers likewise.
  const answers = await Promise.all([0, 1].map((i) => db.answerRun.create({ data: { userId: user.id, requestId: `drain-${i}`, question: "q", status: i ? "completed" : "running", budget: 1000, maxBadAttempt: 3 } })));
  for (const a of answers) await db.run.create({ data: { kind: "answer", subjectId: a.id, userId: user.id, status: "running" } });
  await assert.rejects(assertWithinLimits({ userId: user.id, pool: "answer" }), (e: { code?: string }) => e.code === "rate_limit:concurrent_runs");
});

test("a start at the limit waits for a run that has ended but whose row is still ending, rather than refuse it", async () => {
  const user = await db.user.create({ data: { email: "sequential@example.com", passwordHash: "x" } });
  // A client that asks its next question the moment its last answer came back: that answer's row
  // ends a moment later (its last events going out).
  const [going, answered] = await Promise.all(["running", "completed"].map((s, i) => db.answerRun.create({ data: { userId: user.id, requestId: `seq-${i}`, question: "q", status: s, budget: 1000, maxBadAttempt: 3 } })));
  await db.run.create({ data: { kind: "answer", subjectId: going.id, userId: user.id, status: "running" } });
  const row = await db.run.create({ data: { kind: "answer", subjectId: answered.id, userId: user.id, status: "running" } });
  let rowEnded = false;
  setTimeout(() => void db.run.update({ where: { id: row.id }, data: { status: "completed" } }).then(() => (rowEnded = true)), 300);
  await assertWithinLimits({ userId: user.id, pool: "answer" });
  assert.ok(rowEnded, "let in once the row had ended");
  // Two going by their own status: refused at once, with no wait for anything.
  await db.answerRun.update({ where: { id: answered.id }, data: { status: "running" } });
  await assert.rejects(assertWithinLimits({ userId: user.id, pool: "answer" }), (e: { code?: string }) => e.code === "rate_limit:concurrent_runs");
});

test("starts per hour are limited, and simultaneous starts cannot both take the last slot", async () => {
  const user = await db.user.create({ data: { email: "hourly@example.com", passwordHash: "x" } });
  await db.research.createMany({ data: [0, 1].map(() => ({ userId: user.id, initialPrompt: "p", status: "completed", startedAt: new Date() })) });
  let started = 0;
  const start = () =>
    startWithinLimits({
      userId: user.id,
      pool: "research",
      start: async () => {
        await new Promise((r) => setTimeout(r, 20));
        await db.research.create({ data: { userId: user.id, initialPrompt: "p", status: "completed", startedAt: new Date() } });
        started += 1;
      },
    });
  const results = await Promise.allSettled([start(), start()]);
  assert.equal(started, 1);
  const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
  assert.equal(rejected.reason.code, "rate_limit:research_starts");
  assert.match(rejected.reason.message, /3 researches in the last hour/);
});

test("answers have their own pool: counted apart from researches, with a Retry-After from the oldest start in the hour", async () => {
  const user = await db.user.create({ data: { email: "asker@example.com", passwordHash: "x" } });
  // Two researches running (the research pool is full) do not stop a question.
  await db.research.createMany({ data: [0, 1].map(() => ({ userId: user.id, initialPrompt: "p", status: "running", startedAt: new Date() })) });
  await assert.rejects(assertWithinLimits({ userId: user.id, pool: "research" }), (e: { code?: string }) => e.code === "rate_limit:concurrent_runs");
  await assertWithinLimits({ userId: user.id, pool: "answer" });
  // Three questions in the hour, the oldest 50 minutes ago: the next slot frees in 10 minutes.
  const now = new Date();
  const ago = (min: number) => new Date(now.getTime() - min * 60_000);
  for (const [i, createdAt] of [ago(50), ago(20), ago(1)].entries()) {
    await db.answerRun.create({ data: { userId: user.id, requestId: `pool-${i}-${user.id}`, question: "q", status: "completed", budget: 1000, maxBadAttempt: 3, createdAt } });
  }
  const error = await assertWithinLimits({ userId: user.id, pool: "answer", now }).then(() => null, (e: AppError) => e);
  assert.equal(error?.code, "rate_limit:answer_starts");
  assert.match(error!.message, /asked 3 questions in the last hour/);
  assert.ok(Math.abs(error!.retryAfterSeconds! - 600) <= 1, String(error!.retryAfterSeconds));
});

test("the start lock lives in the database: a start waits while another process holds it", async () => {
  const { acquireUserStartLock, releaseUserStartLock } = await import("../db/users");
  const user = await db.user.create({ data: { email: "two-servers@example.com", passwordHash: "x" } });
  // Another server process holds the user's lock.
  assert.equal(await acquireUserStartLock({ userId: user.id, owner: "other-process", leaseMs: 60_000 }), true);
  assert.equal(await acquireUserStartLock({ userId: user.id, owner: "third-process", leaseMs: 60_000 }), false, "one holder at a time");
  let ran = false;
  const starting = startWithinLimits({ userId: user.id, pool: "research", start: async () => void (ran = true) });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(ran, false, "waits while the other process holds the lock");
  await releaseUserStartLock({ userId: user.id, owner: "other-process" });
  await starting;
  assert.equal(ran, true);
  assert.equal((await db.user.findUniqueOrThrow({ where: { id: user.id } })).startLockOwner, null, "released after the start");
  // A holder that crashed is overtaken once its lease runs out.
  assert.equal(await acquireUserStartLock({ userId: user.id, owner: "crashed", leaseMs: -1 }), true);
  assert.equal(await acquireUserStartLock({ userId: user.id, owner: "next", leaseMs: 60_000 }), true);
});

test("a claimed conversation without a live run stops counting once the claim is older than a start takes", async () => {
  const user = await db.user.create({ data: { email: "orphans@example.com", passwordHash: "x" } });
  const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
  // Two claims whose start failed before opening a run, and one whose run has ended: none is running.
  for (let i = 0; i < 3; i++) {
    const c = await db.conversation.create({ data: { userId: user.id, objective: "o", active: true, updatedAt: tenMinutesAgo } });
    if (i === 2) await db.run.create({ data: { kind: "deep-research", subjectId: c.id, userId: user.id, status: "failed" } });
  }
  await assertWithinLimits({ userId: user.id, pool: "research" });
  // A claim with its run going counts, and so does a claim just made (its run is being opened).
  const live = await db.conversation.create({ data: { userId: user.id, objective: "o", active: true, updatedAt: tenMinutesAgo } });
  await db.run.create({ data: { kind: "deep-research", subjectId: live.id, userId: user.id, status: "running" } });
  await db.conversation.create({ data: { userId: user.id, objective: "o", active: true } });
  await assert.rejects(assertWithinLimits({ userId: user.id, pool: "research" }), (e: AppError) => e.code === "rate_limit:concurrent_runs" && /2 researches running/.test(e.message));
});

test("planning calls: at most MAX_CONCURRENT_PLANNING_CALLS_PER_USER in flight (a call not ended for long is not counted), and RATE_LIMIT_PLANNING_CALLS_PER_HOUR an hour", async () => {
  const { withinPlanningLimits, assertPlanningWithinLimits } = await import("./limits");
  const user = await db.user.create({ data: { email: "planner@example.com", passwordHash: "x" } });
  // A call of a process that died an hour ago is not in flight any more.
  await db.planningCall.create({ data: { userId: user.id, kind: "research-questions", startedAt: new Date(Date.now() - 59 * 60_000) } });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const first = withinPlanningLimits({ userId: user.id, kind: "clarification-questions" }, async ({ onUsage, setSubject }) => {
    await onUsage({ promptTokens: 10, completionTokens: 2, calls: 1 });
    setSubject("session-1");
    await held;
  });
  await new Promise((r) => setTimeout(r, 100));
  const second = withinPlanningLimits({ userId: user.id, kind: "clarification-plan" }, async () => held);
  await new Promise((r) => setTimeout(r, 100));
  await assert.rejects(
    withinPlanningLimits({ userId: user.id, kind: "clarification-plan" }, async () => assert.fail("not called over the limit")),
    (e: AppError) => e.code === "rate_limit:concurrent_planning_calls" && (e.retryAfterSeconds ?? 0) > 0,
  );
  release();
  await Promise.all([first, second]);
  const row = await db.planningCall.findFirstOrThrow({ where: { userId: user.id, kind: "clarification-questions" } });
  assert.deepEqual([row.subjectId, row.promptTokens, row.completionTokens, row.llmCalls, row.endedAt !== null], ["session-1", 10, 2, 1, true]);
  // Three calls in the hour (the limit is 3 here): the next waits until the oldest is an hour old.
  const error = await assertPlanningWithinLimits({ userId: user.id }).then(() => null, (e: AppError) => e);
  assert.equal(error?.code, "rate_limit:planning_calls");
  assert.ok(error!.retryAfterSeconds! > 0 && error!.retryAfterSeconds! <= 60, String(error!.retryAfterSeconds));
});

test("a busy user's wait is until the soonest running run should end, from the user's past durations", async () => {
  const now = new Date("2026-01-01T00:10:00Z");
  const started = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000);
  // Runs take about 30 s (the median); the older run started 20 s ago: 10 s to go.
  assert.equal(slotWaitSeconds([{ runningStarts: [started(5), started(20)], recentDurationsMs: [10_000, 30_000, 90_000] }], now), 10);
  // No history: a minute per run.
  assert.equal(slotWaitSeconds([{ runningStarts: [started(15)], recentDurationsMs: [] }], now), 45);
  // Overdue: any moment now, never 0.
  assert.equal(slotWaitSeconds([{ runningStarts: [started(500)], recentDurationsMs: [30_000] }], now), 2);
  // Two kinds, each by its own history: a tree research of ~10 min started 1 min ago (9 min to go),
  // a Deep Research start of ~4 min started 2 min ago (2 min to go).
  assert.equal(
    slotWaitSeconds([{ runningStarts: [started(60)], recentDurationsMs: [600_000] }, { runningStarts: [started(120)], recentDurationsMs: [240_000] }], now),
    120,
  );
});

test("the research pool's busy 429 says when a tree research or a Deep Research start should end, not a fixed minute", async () => {
  const user = await db.user.create({ data: { email: "busy-researcher@example.com", passwordHash: "x" } });
  const now = new Date();
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  // Past tree researches took 10 minutes; past Deep Research starts 5 minutes.
  await db.research.createMany({ data: [1, 2, 3].map((h) => ({ userId: user.id, initialPrompt: "p", status: "completed", startedAt: ago(h * 3600 + 600), completedAt: ago(h * 3600) })) });
  const past = await db.conversation.create({ data: { userId: user.id, objective: "o" } });
  await db.conversationMessage.createMany({ data: [1, 2].map((h) => ({ conversationId: past.id, role: "user", content: "c", status: "completed", startedAt: ago(h * 3600 + 300), completedAt: ago(h * 3600) })) });
  // Running: a tree research started 2 minutes ago (8 to go), a Deep Research start 1 minute ago (4 to go).
  await db.research.create({ data: { userId: user.id, initialPrompt: "p", status: "running", startedAt: ago(120) } });
  const live = await db.conversation.create({ data: { userId: user.id, objective: "o", active: true } });
  await db.run.create({ data: { kind: "deep-research", subjectId: live.id, userId: user.id, status: "running" } });
  await db.conversationMessage.create({ data: { conversationId: live.id, role: "user", content: "c", status: "processing", startedAt: ago(60) } });
  const error = await assertWithinLimits({ userId: user.id, pool: "research", now }).then(() => null, (e: AppError) => e);
  assert.equal(error?.code, "rate_limit:concurrent_runs");
  assert.ok(Math.abs(error!.retryAfterSeconds! - 240) <= 1, `Retry-After ${error!.retryAfterSeconds}`);
  // The Deep Research start ends: the tree research's 8 minutes are what is left.
  await db.conversationMessage.updateMany({ where: { conversationId: live.id }, data: { status: "completed", completedAt: now } });
  await db.run.updateMany({ where: { subjectId: live.id }, data: { status: "completed" } });
  await db.conversation.update({ where: { id: live.id }, data: { active: false } });
  await db.research.create({ data: { userId: user.id, initialPrompt: "p", status: "running", startedAt: ago(30) } });
  const again = await assertWithinLimits({ userId: user.id, pool: "research", now }).then(() => null, (e: AppError) => e);
  assert.ok(Math.abs(again!.retryAfterSeconds! - 480) <= 1, `Retry-After ${again!.retryAfterSeconds}`);
});
