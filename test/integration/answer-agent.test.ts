// The answer agent against the fakes: the scripted scenarios of the fake LLM (test/fakes/llm-answer.ts)
// through POST /api/v1/query and the SSE stream, checked against what the fakes saw and what is stored.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { ask, askAndWait, getAnswer, readSse } from "../helpers/answer";
import { readUiStream } from "../helpers/ui-stream";

describe("answer agent", () => {
  let fakes: Fakes;
  let app: TestApp;
  before(async () => {
    fakes = await startFakes({ search: { failingPageShare: 0 } });
    app = await TestApp.start({ name: "answer", env: { ...fakes.env, ANSWER_MAX_BUDGET: "2000000", RUN_HEARTBEAT_MS: "500" } });
  });
  after(async () => {
    if (process.env.ANSWER_TEST_LOGS) console.log(app?.logs());
    await app?.stop();
    await fakes?.stop();
  });

  test("a trivial question is answered at step 1 with no tool call", async () => {
    const searches = fakes.search.log.length;
    const { events, stored } = await askAndWait(app, { q: "What is 1+1=?" });
    assert.deepEqual(events.map((e) => e.data.type), ["progress", "answer"]);
    assert.equal(stored.status, "completed");
    assert.equal(stored.answer, "2");
    assert.deepEqual(stored.references, []);
    assert.equal(stored.steps.length, 1);
    assert.equal(fakes.search.log.length, searches, "no search");
    assert.equal(stored.usage.byPurpose.evaluate.calls, 0);
  });

  test("the engine-neutral run stream serves an answer run too: its snapshot, then its events to the answer", async () => {
    const { requestId } = await askAndWait(app, { q: "What is 1+1=?" });
    const answerRun = await app.db.answerRun.findFirstOrThrow({ where: { requestId } });
    const run = await app.db.run.findUniqueOrThrow({ where: { kind_subjectId: { kind: "answer", subjectId: answerRun.id } } });
    const parts = (await readUiStream(app, `/api/runs/${run.id}/stream`, { timeoutMs: 30_000 })) as { type: string; data?: { run: { kind: string }; data: { requestId: string; status: string; answer: string } } }[];
    const snapshot = parts.find((p) => p.type === "data-snapshot")!.data!;
    assert.equal(snapshot.run.kind, "answer");
    assert.deepEqual([snapshot.data.requestId, snapshot.data.status, snapshot.data.answer], [requestId, "completed", "2"]);
    assert.ok(parts.some((p) => p.type === "finish"), "a finished run's stream ends after its snapshot");
  });

  test("a multi-step question searches, visits, then answers with a quote that is on a page it read", async () => {
    const { events, stored } = await askAndWait(app, { q: "How much storage did grid batteries add in 2024?" });
    assert.deepEqual(stored.steps.map((s) => s.action), ["search", "visit", "answer"]);
    assert.equal(stored.status, "completed");
    assert.equal(stored.references.length, 1);
    const ref = stored.references[0];
    assert.ok(stored.readURLs.includes(ref.url));
    const page = await (await fetch(ref.url)).text();
    assert.ok(page.replace(/\s+/g, " ").includes(ref.exactQuote.slice(0, 40)), "the quote is on the fixture page");
    // The answer is the quote, marked with its reference (one citation style: [^n]).
    assert.equal(stored.answer, `${ref.exactQuote}[^1]`);
    // Event shapes, exactly as the issue gives them.
    const progress = events.filter((e) => e.data.type === "progress");
    assert.equal(progress.length, 3);
    const trackers = progress[0].data.trackers as Record<string, unknown>;
    assert.deepEqual(Object.keys(trackers).sort(), ["actionState", "badAttempts", "gaps", "step", "tokenBreakdown", "tokenUsage"]);
    assert.deepEqual(Object.keys(trackers.actionState as object).sort(), ["action", "searchQuery", "think"]);
    assert.deepEqual(Object.keys((progress[1].data.trackers as { actionState: object }).actionState).sort(), ["URLTargets", "action", "think"]);
    const final = events.at(-1)!.data;
    assert.equal(final.type, "answer");
    for (const key of ["answer", "references", "visitedURLs", "readURLs", "usage"]) assert.ok(key in final, key);
    const usage = final.usage as { totalTokens: number; byPurpose: Record<string, { promptTokens: number; completionTokens: number }> };
    // Exact to what the provider reported: the fake's own log.
    const reported = fakes.llm.log.filter((e) => e.agent.startsWith("answer-") && JSON.stringify(e.messages).includes("grid batteries add in 2024"));
    assert.equal(usage.totalTokens, reported.reduce((s, e) => s + e.promptTokens + e.completionTokens, 0));
    assert.equal(usage.byPurpose.evaluate.promptTokens > 0, true);
    // Event ids are increasing sequence numbers.
    const ids = events.map((e) => e.id!);
    assert.deepEqual([...ids].sort((a, b) => a - b), ids);
  });

  test("a late subscriber gets every event; Last-Event-ID replays only what it missed", async () => {
    const { streamUrl, events } = await askAndWait(app, { q: "When were the lead service lines replaced?" });
    const again = await readSse(app, streamUrl);
    assert.deepEqual(again, events);
    const resumed = await readSse(app, streamUrl, { lastEventId: events[0].id! });
    assert.deepEqual(resumed, events.slice(1));
  });

  test("an answer whose quote is not on the page is rejected, counted, and the next answer is accepted", async () => {
    const { stored } = await askAndWait(app, { q: "What is the fabricated figure for grid batteries in 2024?" });
    const answers = stored.steps.filter((s) => s.action === "answer");
    assert.equal(answers.length, 2);
    assert.equal(answers[0].payload.outcome, "rejected");
    assert.match(String(answers[0].payload.lesson), /does not occur/);
    assert.equal(answers[1].payload.outcome, "accepted");
    assert.equal(stored.status, "completed");
    assert.ok(!stored.answer!.includes("never written"));
  });

  test("bad attempts are counted and bounded by maxBadAttempt: then beast mode answers", async () => {
    const { events, stored } = await askAndWait(app, { q: "What is probably the storage added by grid batteries in 2024?", maxBadAttempt: 2 });
    const rejected = stored.steps.filter((s) => s.payload.outcome === "rejected");
    assert.equal(rejected.length, 2);
    const final = events.at(-1)!.data;
    assert.equal(final.type, "answer");
    assert.equal(final.badAttempts, 2);
    assert.match(String(final.beastMode), /rejected/);
    assert.match(stored.answer!, /^Final answer: /);
    assert.equal(stored.references.length, 1);
    assert.ok(stored.usage.byPurpose.beast.calls >= 1);
  });

  test("budget exhaustion ends in beast mode with an answer, and tokens never pass the budget", async () => {
    const budget = 9_000;
    const { events, stored } = await askAndWait(app, { q: "An endless question about grid batteries in 2024", budget });
    const final = events.at(-1)!.data;
    // Everything needed to explain a failure: the events' types, the final event and the steps taken.
    const story = JSON.stringify({ events: events.map((e) => `${e.id}:${e.data.type}`), final, status: stored.status, error: stored.error, usage: stored.usage.totalTokens, steps: stored.steps.map((s) => ({ step: s.step, action: s.action, payload: s.payload })) });
    assert.equal(final.type, "answer", story);
    assert.match(String(final.beastMode), /budget/, story);
    assert.ok(stored.usage.totalTokens <= budget, `${stored.usage.totalTokens} > ${budget}`);
    assert.ok(stored.usage.totalTokens > budget * 0.5, `the budget was used, not left idle: ${story}`);
    assert.ok(stored.steps.length >= 2, story);
  });

  test("duplicate and near-duplicate sub-questions are dropped; reflect is disabled after none is new", async () => {
    const { stored } = await askAndWait(app, { q: "A duplicate question about grid batteries in 2024?" });
    const reflects = stored.steps.filter((s) => s.action === "reflect");
    assert.equal(reflects.length, 2);
    assert.deepEqual(reflects[0].payload.added, ["Which year was it first published?"]);
    assert.deepEqual(reflects[1].payload.added, []);
    const next = stored.steps[stored.steps.indexOf(reflects[1]) + 1];
    assert.ok(!(next.payload.allowed as string[]).includes("reflect"));
    assert.equal(stored.status, "completed");
  });

  test("bad input is a 400 naming the field; a used requestId too", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ q: "  " }, "q"],
      [{ q: "x", budget: 0 }, "budget"],
      [{ q: "x", budget: 1.5 }, "budget"],
      [{ q: "x", budget: 3_000_000 }, "budget"],
      [{ q: "x", maxBadAttempt: 11 }, "maxBadAttempt"],
      [{ q: "x", maxBadAttempt: 0 }, "maxBadAttempt"],
    ];
    for (const [body, field] of cases) {
      const res = await app.postJson("/api/v1/query", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(((await res.json()) as { field: string }).field, field);
    }
    await ask(app, { q: "What is 1+1=?", requestId: "fixed-id-1" });
    const res = await app.postJson("/api/v1/query", { q: "What is 1+1=?", requestId: "fixed-id-1" });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { field: string }).field, "requestId");
  });

  test("stored answers are listed, newest first", async () => {
    const res = await app.fetch("/api/v1/answers?limit=3");
    assert.equal(res.status, 200);
    const { answers } = (await res.json()) as { answers: { requestId: string; status: string }[] };
    assert.equal(answers.length, 3);
    assert.ok(answers.every((a) => typeof a.requestId === "string"));
    // History searches them (ignoring case) and filters by status on the server.
    const found = (await (await app.fetch("/api/v1/answers?q=WHAT%20IS%201%2B1")).json()) as { answers: { question: string }[] };
    assert.ok(found.answers.length > 0 && found.answers.every((a) => /what is 1\+1/i.test(a.question)), JSON.stringify(found));
    assert.equal(((await (await app.fetch("/api/v1/answers?q=no-such-question")).json()) as { answers: unknown[] }).answers.length, 0);
    const completed = (await (await app.fetch("/api/v1/answers?status=completed&limit=100")).json()) as { answers: { status: string }[] };
    assert.ok(completed.answers.length > 0 && completed.answers.every((a) => a.status === "completed"));
    const bad = await app.fetch("/api/v1/answers?status=sleeping");
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { field: string }).field, "status");
  });

  test("a run is cancelled on request: the stream ends with an error event and the run stays cancelled", async () => {
    fakes.llm.configure({ latencyMs: 300 });
    try {
      const { requestId, streamUrl } = await ask(app, { q: "An endless question about lead service lines" });
      const reading = readSse(app, streamUrl);
      await waitFor(async () => ((await getAnswer(app, requestId)).steps.length >= 1 ? true : undefined), 30_000, "a first step");
      const res = await app.postJson(`/api/v1/answers/${requestId}/cancel`, {});
      assert.equal(res.status, 200);
      const events = await reading;
      assert.deepEqual(events.at(-1)!.data, { type: "error", message: "Cancelled by the user" });
      assert.equal((await getAnswer(app, requestId)).status, "cancelled");
      assert.equal((await app.postJson(`/api/v1/answers/${requestId}/cancel`, {})).status, 409);
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
    }
  });

  test("a run interrupted by a crash goes on from its last stored step after a restart", async () => {
    fakes.llm.configure({ latencyMs: 400 });
    try {
      const { requestId } = await ask(app, { q: "A duplicate question about lead service lines?" });
      const stepsBefore = await waitFor(async () => {
        const n = (await getAnswer(app, requestId)).steps.length;
        return n >= 2 ? n : undefined;
      }, 30_000, "two steps");
      await app.kill();
      await app.restart();
      const done = await waitFor(async () => {
        const a = await getAnswer(app, requestId);
        return a.status === "completed" || a.status === "failed" ? a : undefined;
      }, 90_000, "the resumed run's end");
      assert.equal(done.status, "completed", done.error ?? "");
      assert.ok(done.steps.length > stepsBefore);
      assert.deepEqual(done.steps.map((s) => s.step), done.steps.map((_, i) => i + 1), "steps numbered once each, in order");
      const events = await readSse(app, `/api/v1/stream/${requestId}`);
      assert.equal(events.at(-1)!.data.type, "answer");
      const ids = events.map((e) => e.id!);
      assert.equal(new Set(ids).size, ids.length, "event numbers never repeat across the restart");
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
    }
  });
});
