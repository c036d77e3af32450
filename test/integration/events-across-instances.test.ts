// Any server instance streams any run, whoever runs it: two instances on one database, without Redis
// (the event log in the database: LISTEN/NOTIFY on PostgreSQL, a short poll on SQLite) and with
// REDIS_URL (a Redis stream per run). The instance that does not run the run serves a snapshot, then
// every newer event, no number twice, across a reconnect, and the stream ends when the run ends; an
// answer stream goes on across a takeover with every step once. With Redis, the LLM limit holds for
// both instances together. (Before: the other instance's stream got the snapshot and then nothing,
// and stayed open after the run ended; after a takeover an answer stream missed every step before it.)
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { ask, getAnswer, readSse, type SseEvent } from "../helpers/answer";
import { createAndStart, getView, waitForStatus } from "../helpers/research";
import { readUiStream, type UiPart } from "../helpers/ui-stream";
import { redisUnavailable, testRedisPrefix, TEST_REDIS_URL } from "../helpers/redis";

const HEARTBEAT_MS = 1000;
const LLM_LIMIT = 2;
const redisProblem = await redisUnavailable();

const liveSeqs = (parts: UiPart[]) => parts.filter((p) => p.type.startsWith("data-") && p.type !== "data-snapshot").map((p) => p.data!.seq!);
const snapshotOf = (parts: UiPart[]) => parts.find((p) => p.type === "data-snapshot")!.data as unknown as { seq: number; research: { status: string; serp_queries: { query_id: string; status: string }[] } };
const increasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]);
const ownedBy = (owner: string | null, app: TestApp) => Boolean(owner?.includes(`:${app.pid}:`));

/** The progress steps an answer stream delivered, in order (the step numbers of their trackers). */
const stepsOf = (events: SseEvent[]) => events.filter((e) => e.data.type === "progress").map((e) => (e.data.trackers as { step: number }).step);

function suite(mode: "database" | "redis") {
  let fakes: Fakes;
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    fakes = await startFakes({ search: { failingPageShare: 0 } });
    const env: Record<string, string> = { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000", RUN_HEARTBEAT_MS: String(HEARTBEAT_MS), ANSWER_MAX_BUDGET: "2000000", MAX_CONCURRENT_RUNS_PER_USER: "10", ANALYZE_CONCURRENCY_PER_QUERY: "3", LLM_CONCURRENCY: String(LLM_LIMIT) };
    // Each web instance executes the runs it starts (QUEUE_RUNS=0; queue-mode.test.ts has workers), Redis carries events and limits.
    if (mode === "redis") Object.assign(env, { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: testRedisPrefix("events"), QUEUE_RUNS: "0" });
    a = await TestApp.start({ name: `events-${mode}`, env });
    b = await TestApp.alongside(a, { env });
  });
  after(async () => {
    if (process.env.EVENTS_TEST_LOGS) console.log(a?.logs(), b?.logs());
    await b?.stop();
    await a?.stop();
    await fakes?.stop();
  });
  beforeEach(() => fakes.reset());

  test("a research one instance runs streams from the other: snapshot then live, a reconnect without gap or repeat, the end", async () => {
    fakes.llm.configure({ latencyMs: 120 });
    const id = await createAndStart(a, { depth: 2, breadth: 3 });
    const first = await readUiStream(b, `/api/research/${id}/stream`, { enough: (parts) => liveSeqs(parts).length >= 10, timeoutMs: 60_000 });
    const run = await a.db.run.findUniqueOrThrow({ where: { kind_subjectId: { kind: "tree", subjectId: id } } });
    assert.ok(ownedBy(run.leaseOwner, a), "the run executes in the first instance");
    const seen = liveSeqs(first);
    assert.ok(seen.length >= 10, `live events reached the other instance: ${seen.length}`);
    assert.ok(seen[0] > snapshotOf(first).seq && increasing(seen), `numbered after the snapshot, increasing: ${snapshotOf(first).seq} then ${seen.join(",")}`);

    // Reconnect (as a client whose connection dropped): a new snapshot, then every event after it, to the end.
    const second = await readUiStream(b, `/api/research/${id}/stream`, { enough: (parts) => parts.some((p) => p.type === "finish"), timeoutMs: 90_000 });
    const finishedAt = Date.now();
    const snapshot = snapshotOf(second);
    assert.ok(snapshot.seq >= Math.max(...seen), `the new snapshot (${snapshot.seq}) is numbered after everything seen (${Math.max(...seen)})`);
    const live = liveSeqs(second);
    assert.ok(live.every((s) => s > snapshot.seq) && increasing(live), `no repeat: ${live.join(",")}`);
    const last = second.filter((p) => p.type.startsWith("data-")).at(-1)!;
    assert.equal(last.type, "data-run");
    assert.equal(last.data!.status, "completed");
    assert.ok(second.some((p) => p.type === "finish"), "the stream ends with the run");
    // The run row is marked ended just after its last event is out (streams may close first).
    const ended = await waitFor(async () => (await a.db.run.findUniqueOrThrow({ where: { id: run.id } })).completedAt ?? undefined, 10_000, "the run row to end");
    assert.ok(finishedAt - ended.getTime() < 5_000, `the stream ended ${finishedAt - ended.getTime()} ms after the run`);

    // Nothing missed: the snapshot with the live parts applied is the finished research.
    const statuses = new Map(snapshot.research.serp_queries.map((q) => [q.query_id, q.status]));
    for (const p of second) if (p.type === "data-query") statuses.set(p.id!, String(p.data!.status));
    const final = await getView(a, id);
    assert.equal(final.status, "completed");
    assert.deepEqual(
      Object.fromEntries([...statuses].sort()),
      Object.fromEntries(final.serp_queries.map((q) => [q.query_id, q.status]).sort()),
      "every query's final status reached the stream",
    );
  });

  test("an answer one instance runs streams from the other, and Last-Event-ID resumes it with every step once", async () => {
    fakes.llm.configure({ latencyMs: 80 });
    const { requestId, streamUrl } = await ask(a, { q: "An endless question about grid batteries in 2024", budget: 20_000 });
    const first = await readSse(b, streamUrl, { stopAfter: 2 });
    assert.equal(first.length, 2, "events reached the other instance");
    const rest = await readSse(b, streamUrl, { lastEventId: first.at(-1)!.id! });
    const events = [...first, ...rest];
    const ids = events.map((e) => e.id!);
    assert.ok(increasing(ids), `no gap or repeat in the numbering: ${ids.join(",")}`);
    assert.equal(events.at(-1)!.data.type, "answer", JSON.stringify(events.at(-1)));
    const stored = await getAnswer(a, requestId);
    assert.deepEqual(stepsOf(events), stored.steps.map((s) => s.step), "every stored step, once, in order");
  });

  test("an answer stream on the other instance goes on across a takeover with every step once", async () => {
    fakes.llm.configure({ latencyMs: 250 });
    // A third instance that logs its events only once a minute, then dies: every step it stored
    // before the kill has no event in the log, and the instance that takes the run over must log them.
    const doomed = await TestApp.alongside(a, { env: { EVENT_LOG_BATCH_MS: "60000" } });
    try {
      const { requestId, streamUrl } = await ask(doomed, { q: "An endless question about lead service lines", budget: 30_000 });
      const streamed = readSse(b, streamUrl);
      await waitFor(async () => ((await getAnswer(b, requestId)).steps.length >= 2 ? true : undefined), 60_000, "two steps");
      const answerRun = await b.db.answerRun.findFirstOrThrow({ where: { requestId } });
      const runOf = () => b.db.run.findUniqueOrThrow({ where: { kind_subjectId: { kind: "answer", subjectId: answerRun.id } } });
      assert.ok(ownedBy((await runOf()).leaseOwner, doomed));
      await doomed.kill();
      await waitFor(async () => {
        const { leaseOwner } = await runOf();
        return ownedBy(leaseOwner, a) || ownedBy(leaseOwner, b) ? true : undefined;
      }, 20_000, "the takeover");
      const events = await streamed;
      const stored = await getAnswer(b, requestId);
      assert.equal(stored.status, "completed", stored.error ?? "");
      assert.ok(stored.steps.length >= 3, `steps: ${stored.steps.length}`);
      assert.deepEqual(stepsOf(events), stored.steps.map((s) => s.step), `every step once (stream: ${stepsOf(events).join(",")})`);
      assert.ok(increasing(events.map((e) => e.id!)), "numbered in order across the takeover");
      assert.equal(events.at(-1)!.data.type, "answer");
    } finally {
      await doomed.stop();
    }
  });

  if (mode === "redis") {
    test("the LLM limit holds for both instances together", async () => {
      fakes.llm.configure({ latencyMs: 150 });
      const ids: string[] = [];
      // One after the other: the user's planning calls (the follow-up questions) are limited per user.
      // Each instance alone would have up to 2 × 3 page analyses waiting for its 2 slots.
      for (const app of [a, b]) ids.push(await createAndStart(app, { depth: 1, breadth: 2 }));
      for (const id of ids) {
        const view = await waitForStatus(a, id, ["completed", "failed"]);
        assert.equal(view.status, "completed", view.error ?? "");
      }
      assert.ok(fakes.llm.peakInFlight <= LLM_LIMIT, `at most ${LLM_LIMIT} LLM requests at once across both instances, saw ${fakes.llm.peakInFlight}`);
      assert.ok(fakes.llm.peakInFlight >= 2, `the instances did call in parallel (${fakes.llm.peakInFlight})`);
    });
  }
}

describe("events across instances, without Redis (the database's event log)", () => suite("database"));

if (redisProblem === null) describe("events across instances and limits, with Redis", () => suite("redis"));
else if (process.env.CI === "true") test("Redis is required on CI for the queue-mode tests", () => assert.fail(`Redis at ${TEST_REDIS_URL} does not answer (${redisProblem})`));
else describe("events across instances and limits, with Redis", { skip: `Redis at ${TEST_REDIS_URL} does not answer (${redisProblem})` }, () => suite("redis"));
