// Deep Research end to end against the fakes: iterations per mode, status reporting, dedup,
// discoveries traceable to stored snippets, the clarification flow, stop, and uploads.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { conversation, pollUntilDone, readConversationStream, startDr } from "../helpers/deep-research";

let fakes: Fakes;
let app: TestApp;

// A small tree per literature task keeps each iteration quick.
// The upload limit is lowered (200 MiB by default) so that a 6 MiB upload is over it.
const ENV = { LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "2", MAX_AUTO_ITERATIONS: "3", SCRAPE_TIMEOUT_MS: "2000", DEEP_RESEARCH_MAX_UPLOAD_BYTES: String(5 * 1024 * 1024) };

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "deep-research", env: { ...fakes.env, ...ENV } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

const assistantReplies = (c: Awaited<ReturnType<typeof conversation>>) => c.messages.filter((m) => m.role === "assistant");

test("steering runs one iteration; status goes processing → completed with the reply text", async () => {
  fakes.llm.configure({ latencyMs: 30 });
  const start = await startDr(app, { message: "Solid-state batteries for grid storage", researchMode: "steering" });
  assert.equal(start.status, "processing");
  assert.equal(start.pollUrl, `/api/deep-research/status/${start.messageId}`);
  const startedAt = Date.now();
  const running = await conversation(app, start.conversationId);
  if (running.deepResearchRun.isRunning) {
    // The run view says which phase runs now and since when (the header's elapsed time after a reload).
    assert.ok(running.deepResearchRun.phase);
    assert.ok(Date.parse(running.deepResearchRun.phaseStartedAt!) <= Date.now());
  }
  const seen = await pollUntilDone(app, start.pollUrl);
  assert.equal(seen[0].status, "processing", "the first poll sees the run in progress");
  assert.ok(seen[0].progress && seen[0].progress.label.length > 0);
  // Each phase has the time it started: the same while it runs, later for a later phase, never in the future.
  const progress = seen.flatMap((s) => (s.progress ? [s.progress] : []));
  for (const p of progress) {
    const t = Date.parse(p.phaseStartedAt);
    assert.ok(Number.isFinite(t) && t >= startedAt - 5_000 && t <= Date.now(), JSON.stringify(p));
  }
  for (let i = 1; i < progress.length; i++) {
    const [a, b] = [progress[i - 1], progress[i]];
    if (a.phase === b.phase && a.iteration === b.iteration) assert.equal(b.phaseStartedAt, a.phaseStartedAt, "one phase, one start time");
    else assert.ok(Date.parse(b.phaseStartedAt) >= Date.parse(a.phaseStartedAt), `${a.phase} → ${b.phase}: the later phase starts later`);
  }
  const done = seen.at(-1)!;
  assert.equal(done.status, "completed", JSON.stringify(done));
  const c = await conversation(app, start.conversationId);
  const replies = assistantReplies(c);
  assert.equal(replies.length, 1, "steering stops after one iteration");
  // The status's text is the stored reply (reading another row would not match it).
  assert.equal(done.result!.text, replies[0].content);
  assert.match(done.result!.text, /^Iteration 1 /);
  assert.ok(done.result!.suggestedNextSteps.length > 0);
  assert.equal(c.deepResearchRun.isRunning, false);
  assert.equal(c.deepResearchRun.lastResult, "completed");
  assert.deepEqual(c.plan.map((t) => t.id), ["lit-1-1", "lit-1-2"]);
  assert.ok(c.plan.every((t) => t.status === "completed" && t.childResearchId && t.output), JSON.stringify(c.plan));
  assert.ok(c.state.conversationTitle);
  assert.equal(c.state.objective, "Solid-state batteries for grid storage", "the original objective is kept");
  // The task's tree is hidden from the history.
  const history = (await (await app.fetch("/api/research")).json()) as { researches?: unknown[] } & Record<string, unknown>;
  assert.ok(!JSON.stringify(history).includes(c.plan[0].childResearchId!), "a task's tree is not listed in the history");
});

test("every discovery's evidence resolves to stored snippets; invented ids are dropped", async () => {
  const start = await startDr(app, { message: "Perovskite solar cell stability", researchMode: "steering" });
  await pollUntilDone(app, start.pollUrl);
  const c = await conversation(app, start.conversationId);
  assert.ok(c.discoveries.length > 0, "discoveries recorded");
  for (const d of c.discoveries) {
    assert.ok(d.evidenceItems.length > 0, `${d.id} has evidence`);
    for (const e of d.evidenceItems) {
      assert.ok(!e.itemId.startsWith("invented-"), "an invented id was stored");
      assert.ok(e.quote && e.url, `${e.itemId} resolves to a quote and URL`);
      const item = await app.db.extractedItem.findUniqueOrThrow({ where: { id: e.itemId }, include: { queryPage: { include: { query: true, page: true } } } });
      const task = c.plan.find((t) => t.id === e.taskId)!;
      assert.equal(item.researchId, task.childResearchId, "discovery → task → child research");
      assert.equal(item.queryPage.page.url, e.url);
      assert.equal(item.content, e.quote);
      assert.ok(item.queryPage.query.text.length > 0, "→ query");
    }
  }
  // The literature summaries cite only real snippets.
  for (const t of c.plan) assert.ok(!t.output!.includes("made-up:1"), "an invented citation survived");
});

test("semi-autonomous runs MAX_AUTO_ITERATIONS; fully-autonomous runs until the continue agent stops it", async () => {
  const semi = await startDr(app, { message: "Heat pumps in cold climates" });
  const fully = await startDr(app, { message: "Ocean alkalinity enhancement #stop-at-2", researchMode: "fully-autonomous" });
  assert.equal((await pollUntilDone(app, semi.pollUrl)).at(-1)!.status, "completed");
  assert.equal((await pollUntilDone(app, fully.pollUrl)).at(-1)!.status, "completed");
  const s = await conversation(app, semi.conversationId);
  assert.equal(assistantReplies(s).length, 3, "semi-autonomous: MAX_AUTO_ITERATIONS=3");
  assert.equal(s.state.currentLevel, 3);
  assert.deepEqual([...new Set(s.plan.map((t) => t.level))], [1, 2, 3]);
  assert.equal(new Set(s.plan.map((t) => t.id)).size, s.plan.length, "task ids are unique");
  const f = await conversation(app, fully.conversationId);
  assert.equal(assistantReplies(f).length, 2, "the continue agent stopped at iteration 2");
});

test("no suggested next steps stops the loop", async () => {
  const start = await startDr(app, { message: "Tidal power costs #done-at-1", researchMode: "fully-autonomous" });
  await pollUntilDone(app, start.pollUrl);
  const c = await conversation(app, start.conversationId);
  assert.equal(assistantReplies(c).length, 1);
  assert.deepEqual(c.state.suggestedNextSteps, []);
});

test("a second start while a loop is active returns it, deduplicated, and stores no message", async () => {
  fakes.llm.configure({ latencyMs: 100 });
  const first = await startDr(app, { message: "Green hydrogen electrolysers", researchMode: "steering" });
  const again = await startDr(app, { message: "Another message", conversationId: first.conversationId });
  assert.equal(again.deduplicated, true);
  assert.equal(again.messageId, first.messageId);
  await pollUntilDone(app, first.pollUrl);
  const c = await conversation(app, first.conversationId);
  assert.equal(c.messages.filter((m) => m.role === "user").length, 1, "the deduplicated start stored no message");
  // After the loop, the user's next message steers a new iteration on the next level.
  const next = await startDr(app, { message: "Focus on costs", conversationId: first.conversationId });
  assert.notEqual(next.messageId, first.messageId);
  assert.equal((await pollUntilDone(app, next.pollUrl)).at(-1)!.status, "completed");
  const after = await conversation(app, first.conversationId);
  assert.equal(after.state.currentLevel, 2, "the conversation went on at level 2 (steering mode kept)");
  assert.equal(assistantReplies(after).length, 2);
});

test("the clarification flow: questions, answers, feedback, approval; approved tasks are the first level", async () => {
  const q = await (await app.postJson("/api/clarification/generate-questions", { query: "Soil carbon sequestration" })).json();
  assert.equal(q.ok, true);
  assert.ok(q.questions.length >= 3 && q.questions[0].category && q.questions[0].priority);
  // Not approved yet: a start is refused, naming the status.
  const early = await app.postJson("/api/deep-research/start", { message: "Go", clarificationSessionId: q.sessionId });
  assert.equal(early.status, 400);
  const earlyBody = await early.json();
  assert.equal(earlyBody.error, "Clarification session must be approved. Current status: questions_generated");
  assert.equal(earlyBody.field, "clarificationSessionId");
  const wrong = await app.postJson("/api/clarification/plan-feedback", { sessionId: q.sessionId, approved: true });
  assert.equal(wrong.status, 400);
  assert.match((await wrong.json()).error, /Current status: questions_generated/);

  const a = await (await app.postJson("/api/clarification/submit-answers", { sessionId: q.sessionId, answers: [{ questionIndex: 0, answer: "Since 2015" }] })).json();
  assert.equal(a.plan.initialTasks.length, 2);
  const noFeedback = await app.postJson("/api/clarification/plan-feedback", { sessionId: q.sessionId, approved: false });
  assert.equal(noFeedback.status, 400);
  assert.equal((await noFeedback.json()).field, "feedback");
  const revised = await (await app.postJson("/api/clarification/plan-feedback", { sessionId: q.sessionId, approved: false, feedback: "More on costs" })).json();
  assert.match(revised.plan.objective, /^Refined revised/);
  const approved = await (await app.postJson("/api/clarification/plan-feedback", { sessionId: q.sessionId, approved: true })).json();
  assert.equal(approved.status, "plan_approved");
  const session = await (await app.fetch(`/api/clarification/${q.sessionId}`)).json();
  assert.equal(session.status, "plan_approved");
  assert.equal(session.feedbackHistory.length, 2);

  const start = await startDr(app, { message: "Go", clarificationSessionId: q.sessionId, researchMode: "steering" });
  await pollUntilDone(app, start.pollUrl);
  const c = await conversation(app, start.conversationId);
  assert.match(c.state.objective, /^Refined revised/);
  const level1 = c.plan.filter((t) => t.level === 1);
  assert.deepEqual(level1.map((t) => t.id), ["lit-1-1", "lit-1-2"]);
  const stored = await app.db.researchTask.findMany({ where: { conversationId: start.conversationId, level: 1 }, orderBy: { position: "asc" } });
  assert.deepEqual(stored.map((t) => t.objective), revised.plan.initialTasks.map((t: { objective: string }) => t.objective));
});

test("an ANALYSIS task without data is recorded as skipped with the reason", async () => {
  const start = await startDr(app, { message: "Wind turbine failure rates #analysis", researchMode: "steering" });
  await pollUntilDone(app, start.pollUrl);
  const c = await conversation(app, start.conversationId);
  const analysis = c.plan.find((t) => t.type === "ANALYSIS")!;
  assert.equal(analysis.id, "ana-1-1");
  assert.equal(analysis.status, "skipped");
  assert.match(analysis.error ?? "", /No dataset was uploaded/);
});

test("a start with datasets (multipart) lists them in the world state; oversized uploads are 413", async () => {
  const form = new FormData();
  form.set("message", "Analyse rainfall #analysis");
  form.set("researchMode", "steering");
  const csv = "year,mm\n2020,800\n2021,760\n";
  form.append("files", new Blob([csv], { type: "text/csv" }), "rain.csv");
  const res = await app.fetch("/api/deep-research/start", { method: "POST", body: form });
  const start = await res.json();
  assert.equal(res.status, 200, JSON.stringify(start));
  await pollUntilDone(app, start.pollUrl);
  const c = await conversation(app, start.conversationId);
  const datasets = (c.state as unknown as { uploadedDatasets: { filename: string; size: number; preview: string }[] }).uploadedDatasets;
  assert.equal(datasets[0].filename, "rain.csv");
  assert.equal(datasets[0].size, Buffer.byteLength(csv));
  assert.match(datasets[0].preview, /2020,800/);
  // The file is loaded and analysed (test/integration/deep-research-analysis.test.ts goes further).
  assert.equal(c.plan.find((t) => t.type === "ANALYSIS")!.status, "completed");

  const big = new FormData();
  big.set("message", "Too big");
  big.append("files", new Blob([new Uint8Array(6 * 1024 * 1024)]), "big.bin");
  const tooBig = await app.fetch("/api/deep-research/start", { method: "POST", body: big });
  assert.equal(tooBig.status, 413);
});

test("bad input is a 400 naming the field", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ message: "   " }, "message"],
    [{ message: "x", researchMode: "turbo" }, "researchMode"],
    [{ message: "x", conversationId: "nope" }, "conversationId"],
    [{ message: "x", clarificationSessionId: "nope" }, "clarificationSessionId"],
  ];
  for (const [body, field] of cases) {
    const res = await app.postJson("/api/deep-research/start", body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal((await res.json()).field, field);
  }
});

test("stop ends the loop at once, in the phase at work, keeping what was done", async () => {
  fakes.llm.configure({ latencyMs: 80 });
  const start = await startDr(app, { message: "Fusion startups #stop-at-9", researchMode: "fully-autonomous" });
  await waitFor(async () => ((await conversation(app, start.conversationId)).messages.some((m) => m.role === "assistant") ? true : undefined), 120_000, "a first reply");
  const res = await app.postJson(`/api/deep-research/conversations/${start.conversationId}/stop`, {});
  assert.equal(res.status, 202);
  const done = (await pollUntilDone(app, start.pollUrl)).at(-1)!;
  assert.equal(done.status, "completed");
  assert.match(done.result!.text, /Stopped at the user's request/);
  const c = await conversation(app, start.conversationId);
  assert.ok(assistantReplies(c).length < 9);
  assert.equal(c.deepResearchRun.isRunning, false);
});

test("the conversations list is the caller's, newest first, paginated, filtered by status and searched by text", async () => {
  const page1 = await (await app.fetch("/api/deep-research/conversations?limit=2")).json();
  assert.equal(page1.conversations.length, 2);
  assert.ok(page1.nextCursor);
  const page2 = await (await app.fetch(`/api/deep-research/conversations?limit=2&cursor=${page1.nextCursor}`)).json();
  assert.ok(page2.conversations.length > 0);
  assert.ok(new Date(page1.conversations[1].createdAt) >= new Date(page2.conversations[0].createdAt));
  const bad = await app.fetch("/api/deep-research/conversations?limit=0");
  assert.equal(bad.status, 400);

  // Search ignores case and looks at the objective (and title); "Fusion startups" ran above.
  const found = await (await app.fetch("/api/deep-research/conversations?q=FUSION%20startups")).json();
  assert.equal(found.conversations.length, 1);
  assert.match(found.conversations[0].objective, /Fusion startups/);
  const none = await (await app.fetch("/api/deep-research/conversations?q=no-such-conversation")).json();
  assert.equal(none.conversations.length, 0);
  // Status: every loop above has ended, so all are completed (or failed) and none running.
  const all = (await (await app.fetch("/api/deep-research/conversations?limit=100")).json()).conversations as { id: string; status: string }[];
  const completed = (await (await app.fetch("/api/deep-research/conversations?status=completed&limit=100")).json()).conversations as { id: string; status: string }[];
  assert.ok(completed.length > 0);
  assert.ok(completed.every((c) => c.status === "completed"));
  assert.deepEqual(completed.map((c) => c.id), all.filter((c) => c.status === "completed").map((c) => c.id));
  assert.equal((await (await app.fetch("/api/deep-research/conversations?status=running")).json()).conversations.length, all.filter((c) => c.status === "running").length);
  assert.equal((await (await app.fetch("/api/deep-research/conversations?status=draft")).json()).conversations.length, 0);
  const badStatus = await app.fetch("/api/deep-research/conversations?status=sleeping");
  assert.equal(badStatus.status, 400);
  assert.equal((await badStatus.json()).field, "status");
});

test("the stream sends the snapshot, then typed parts in order until the loop ends; a late client gets the final state", async () => {
  fakes.llm.configure({ latencyMs: 40 });
  const start = await startDr(app, { message: "Direct air capture #stop-at-2", researchMode: "fully-autonomous" });
  const parts = (await readConversationStream(app, start.conversationId)).filter((p) => p.type.startsWith("data-"));
  assert.equal(parts[0].type, "data-snapshot");
  const types = new Set(parts.map((p) => p.type));
  for (const t of ["data-state", "data-message", "data-task", "data-phase", "data-discovery", "data-run"]) assert.ok(types.has(t), `${t} streamed`);
  const seqs = parts.slice(1).map((p) => p.data!.seq!);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "parts in sequence order");
  assert.equal(new Set(seqs).size, seqs.length, "no part twice");
  const last = parts.at(-1)!;
  assert.equal(last.type, "data-run");
  assert.equal(last.data!.isRunning, false);
  const late = await readConversationStream(app, start.conversationId);
  const snapshot = late.find((p) => p.type === "data-snapshot")!.data as unknown as { conversation: { messages: unknown[]; deepResearchRun: { isRunning: boolean } } };
  assert.equal(snapshot.conversation.deepResearchRun.isRunning, false);
  assert.equal(snapshot.conversation.messages.length, 3, "one user message, two replies");
  assert.equal(late.at(-1)!.type, "finish");
});

test("a start stored by a process that died before queueing its run goes on at the next start (deduplicated)", async () => {
  const first = await startDr(app, { message: "Geothermal drilling #done-at-2", researchMode: "steering" });
  await pollUntilDone(app, first.pollUrl);
  // The state such a crash leaves: the guard taken and a processing message, but the run ended.
  const orphan = await app.db.conversationMessage.create({
    data: { conversationId: first.conversationId, role: "user", content: "Orphaned start", status: "processing", phase: "plan", iteration: 1, researchMode: "steering" },
  });
  await app.db.conversation.update({ where: { id: first.conversationId }, data: { active: true, rootMessageId: orphan.id } });
  const again = await startDr(app, { message: "Hello?", conversationId: first.conversationId });
  assert.equal(again.deduplicated, true);
  assert.equal(again.messageId, orphan.id);
  assert.equal((await pollUntilDone(app, again.pollUrl)).at(-1)!.status, "completed");
  const c = await conversation(app, first.conversationId);
  assert.equal(c.deepResearchRun.isRunning, false);
  assert.equal(c.messages.filter((m) => m.role === "user").length, 2, "the deduplicated start stored nothing");
});

test("a task's tree is readable by its owner but cannot be resumed, reported on or deleted outside its conversation", async () => {
  const start = await startDr(app, { message: "Offshore wind cabling", researchMode: "steering" });
  await pollUntilDone(app, start.pollUrl);
  const child = (await conversation(app, start.conversationId)).plan[0].childResearchId!;
  const view = await app.fetch(`/api/research/${child}`);
  assert.equal(view.status, 200);
  assert.equal(((await view.json()) as { status: string }).status, "completed");
  for (const [method, path] of [["POST", `/api/research/${child}/resume`], ["POST", `/api/research/${child}/write-report`], ["DELETE", `/api/research/${child}`]]) {
    const res = await app.fetch(path, { method, headers: { "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
    assert.equal(res.status, 409, `${method} ${path}`);
  }
  assert.ok(await app.db.research.findUnique({ where: { id: child } }), "the tree is still there");
});
