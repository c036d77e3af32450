// Cancel and delete sent to the process that does not run the research (issue 20): two server
// processes on one database, with the default heartbeat (10 s), so that only the owner's cancel poll
// — not a heartbeat — can stop the run within the 2 s the issue asks for. The run is mid-flight
// (a slow fake LLM); a cancel stops it, ends it `cancelled` and closes the owner's stream; a delete
// stops it, removes its rows and leaves the owner healthy.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createAndStart, getView } from "../helpers/research";
import { ask, getAnswer, readSse } from "../helpers/answer";
import { readUiStream } from "../helpers/ui-stream";
import { createTestToken, signInSession, signOutSession } from "../helpers/auth";
import { startDr } from "../helpers/deep-research";

/** The bound: a cancel reaches the owner within this, wherever it was sent. */
const STOP_WITHIN_MS = 2_000;
/** How long after that the test watches for LLM calls that should not come (the run was making several a second). */
const WATCH_MS = 4_000;
let fakes: Fakes;
let owner: TestApp;
let other: TestApp;

before(async () => {
  fakes = await startFakes();
  // The default heartbeat, stated: a cancel heard only at a heartbeat would take up to 10 s.
  const env = { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000", RUN_HEARTBEAT_MS: "10000", ANSWER_MAX_BUDGET: "2000000" };
  owner = await TestApp.start({ name: "cancel-across", env });
  other = await TestApp.alongside(owner, { env });
});
after(async () => {
  await other?.stop();
  await owner?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

const ownedBy = (leaseOwner: string | null | undefined, app: TestApp) => Boolean(leaseOwner?.includes(`:${app.pid}:`));
const treeRun = (id: string) => owner.db.run.findUnique({ where: { kind_subjectId: { kind: "tree", subjectId: id } } });

/** LLM requests that arrived more than STOP_WITHIN_MS after `since` (after watching long enough to see them). */
async function callsAfterStop(since: number): Promise<number> {
  await new Promise((r) => setTimeout(r, STOP_WITHIN_MS + WATCH_MS - (Date.now() - since)));
  return fakes.llm.log.filter((e) => e.at > since + STOP_WITHIN_MS).length;
}

/** A tree research started on the owner, with findings coming in (mid-flight). */
async function runningResearch(): Promise<string> {
  // Slow calls keep it going well past the watch if nothing stops it; the tree stays small (9 queries),
  // so that a loaded machine does not turn it into a test of the database's transaction timeouts.
  fakes.llm.configure({ latencyMs: 600 });
  const id = await createAndStart(owner, { depth: 2, breadth: 3 });
  await waitFor(async () => ((await owner.db.extractedItem.count({ where: { researchId: id } })) >= 1 ? true : undefined), 60_000, "a first finding");
  assert.ok(ownedBy((await treeRun(id))?.leaseOwner, owner), "the research runs in the owner process");
  return id;
}

test("a research cancelled through the other process stops within 2 s, ends cancelled, and the owner's stream closes", async () => {
  const id = await runningResearch();
  // The owner's stream, as the browser that started the research reads it; it must end on the cancel.
  let streamEndedAt = 0;
  let snapshotRead: (running: boolean) => void = () => {};
  const snapshot = new Promise<boolean>((resolve) => (snapshotRead = resolve));
  const stream = readUiStream(owner, `/api/research/${id}/stream`, {
    timeoutMs: 20_000,
    enough: (parts) => {
      const first = parts.find((p) => p.type === "data-snapshot");
      if (first) snapshotRead((first.data?.research as { status: string }).status === "running");
      return false;
    },
  }).then(
    // A stream still open when it gives up (20 s) resolves null: it hung.
    (parts) => ((streamEndedAt = Date.now()), parts),
    () => null,
  );
  // The stream follows the running research before the cancel (else it is one final snapshot).
  assert.equal(await snapshot, true, "the stream's snapshot shows the research running");

  const res = await other.postJson(`/api/research/${id}/cancel`, {});
  assert.equal(res.status, 200, await res.clone().text());
  const answeredAt = Date.now();

  assert.equal(await callsAfterStop(answeredAt), 0, `no LLM call starts more than ${STOP_WITHIN_MS} ms after the cancel`);
  const parts = await stream;
  assert.ok(parts, "the owner's stream ended");
  assert.ok(streamEndedAt - answeredAt < STOP_WITHIN_MS + WATCH_MS, `the owner's stream ended ${streamEndedAt - answeredAt} ms after the cancel`);
  const statuses = parts.filter((p) => p.type === "data-run").map((p) => p.data?.status);
  assert.equal(statuses.at(-1), "cancelled", `the stream's statuses: ${statuses.join(", ")}; its parts: ${[...new Set(parts.map((p) => p.type))].join(", ")}, last ${JSON.stringify(parts.at(-1))}`);
  assert.equal(parts.at(-1)?.type, "finish", "the stream says it finished (not dropped)");

  const run = await waitFor(async () => {
    const r = await treeRun(id);
    return r && r.status !== "running" ? r : undefined;
  }, 15_000, "the run row to end");
  assert.equal(run.status, "cancelled");
  assert.equal(run.leaseOwner, null);
  for (const app of [owner, other]) assert.equal((await getView(app, id)).status, "cancelled", "the research stays cancelled (never overwritten by completed)");
  const view = await getView(owner, id);
  assert.deepEqual(view.serp_queries.filter((q) => ["pending", "searching", "scraping", "analyzing"].includes(q.status)), [], "unfinished rows settled as stopped");
});

test("an answer run cancelled through the other process stops within 2 s, ends cancelled, and the owner's stream closes", async () => {
  fakes.llm.configure({ latencyMs: 400 });
  const { requestId, streamUrl } = await ask(owner, { q: "An endless question about lead service lines" });
  let streamEndedAt = 0;
  const stream = readSse(owner, streamUrl).then(
    (events) => ((streamEndedAt = Date.now()), events),
    () => null,
  );
  await waitFor(async () => ((await getAnswer(owner, requestId)).steps.length >= 1 ? true : undefined), 30_000, "a first step");
  const answerRun = await owner.db.answerRun.findFirstOrThrow({ where: { requestId } });
  const run = () => owner.db.run.findUniqueOrThrow({ where: { kind_subjectId: { kind: "answer", subjectId: answerRun.id } } });
  assert.ok(ownedBy((await run()).leaseOwner, owner), "the answer runs in the owner process");

  const res = await other.postJson(`/api/v1/answers/${requestId}/cancel`, {});
  assert.equal(res.status, 200, await res.clone().text());
  const answeredAt = Date.now();

  assert.equal(await callsAfterStop(answeredAt), 0, `no LLM call starts more than ${STOP_WITHIN_MS} ms after the cancel`);
  // Bounded: readSse gives up after 120 s; a stream still open after the watch is one that hangs.
  const events = await Promise.race([stream, new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
  assert.ok(events, "the owner's stream ended");
  assert.ok(streamEndedAt - answeredAt < STOP_WITHIN_MS + WATCH_MS, `the owner's stream ended ${streamEndedAt - answeredAt} ms after the cancel`);
  assert.deepEqual(events.at(-1)!.data, { type: "error", message: "Cancelled by the user" });
  assert.equal((await getAnswer(owner, requestId)).status, "cancelled");
  const ended = await waitFor(async () => {
    const r = await run();
    return r.status !== "running" ? r : undefined;
  }, 15_000, "the run row to end");
  assert.equal(ended.status, "cancelled");
});

/** The stop (52): after the cancel is recorded, at most the LLM calls already in flight finish; a new one starts only within this grace. */
const STOP_GRACE_MS = 750;

test("a cancel sent through the other process reaches the owner at once: the run ends cancelled within 2 s, and no LLM call starts after a short grace", async () => {
  const id = await runningResearch();
  const sentAt = Date.now();
  const res = await other.postJson(`/api/research/${id}/cancel`, {});
  assert.equal(res.status, 200, await res.clone().text());
  const answeredAt = Date.now();
  // The calls the run had in flight when the cancel was recorded (they may finish or be aborted).
  const inFlight = fakes.llm.log.filter((e) => e.at <= answeredAt && (e.endedAt === null || e.endedAt > sentAt)).length;
  const run = await waitFor(async () => {
    const r = await treeRun(id);
    return r && r.status !== "running" ? r : undefined;
  }, 15_000, "the run row to end");
  const endedAfterMs = Date.now() - answeredAt;
  assert.equal(run.status, "cancelled");
  // Watch long enough for a late call to show.
  await new Promise((r) => setTimeout(r, 2_000));
  const started = fakes.llm.log.filter((e) => e.at > answeredAt);
  const late = started.filter((e) => e.at > answeredAt + STOP_GRACE_MS);
  console.log(`cancel through the other process: run ended ${endedAfterMs} ms after the cancel; ${inFlight} LLM calls in flight, ${started.length} started after it (${late.length} after ${STOP_GRACE_MS} ms)`);
  assert.ok(endedAfterMs < STOP_WITHIN_MS, `the run ended ${endedAfterMs} ms after the cancel`);
  assert.deepEqual(late.map((e) => `${e.agent} +${e.at - answeredAt} ms`), [], `no LLM call starts more than ${STOP_GRACE_MS} ms after the cancel`);
  assert.ok(started.length <= Math.max(1, inFlight), `${started.length} LLM calls started after the cancel, more than the ${inFlight} in flight`);
});

test("a Deep Research start stopped through the other process while its tasks work: the phase at work is aborted, no LLM call starts after a short grace", async () => {
  fakes.llm.configure({ latencyMs: 300 });
  const start = await startDr(owner, { message: "Flow batteries for grid storage", researchMode: "fully-autonomous" });
  const { conversationId } = start;
  await waitFor(async () => ((await owner.db.researchTask.count({ where: { conversationId, status: "running" } })) >= 1 ? true : undefined), 60_000, "a task at work");
  const drRun = () => owner.db.run.findUnique({ where: { kind_subjectId: { kind: "deep-research", subjectId: conversationId } } });
  assert.ok(ownedBy((await drRun())?.leaseOwner, owner), "the start runs in the owner process");
  const sentAt = Date.now();
  const res = await other.postJson(`/api/deep-research/conversations/${conversationId}/stop`, {});
  assert.equal(res.status, 202, await res.clone().text());
  const answeredAt = Date.now();
  const inFlight = fakes.llm.log.filter((e) => e.at <= answeredAt && (e.endedAt === null || e.endedAt > sentAt)).length;
  const run = await waitFor(async () => {
    const r = await drRun();
    return r && r.status !== "running" ? r : undefined;
  }, 30_000, "the run row to end");
  const endedAfterMs = Date.now() - answeredAt;
  await new Promise((r) => setTimeout(r, 2_000));
  const started = fakes.llm.log.filter((e) => e.at > answeredAt);
  const late = started.filter((e) => e.at > answeredAt + STOP_GRACE_MS);
  console.log(`Deep Research stop through the other process: run ended ${endedAfterMs} ms after the stop; ${inFlight} LLM calls in flight, ${started.length} started after it (${late.length} after ${STOP_GRACE_MS} ms)`);
  assert.equal(run.status, "completed", "a stop ends the start (keeping what was done), it does not cancel it");
  assert.ok(endedAfterMs < STOP_WITHIN_MS, `the run ended ${endedAfterMs} ms after the stop`);
  // Within the grace (the owner's stop poll, 500 ms) a tree's nodes may still start a few calls; none after it.
  assert.deepEqual(late.map((e) => `${e.agent} +${e.at - answeredAt} ms`), [], `no LLM call starts more than ${STOP_GRACE_MS} ms after the stop`);
  const message = await owner.db.conversationMessage.findFirstOrThrow({ where: { conversationId, role: "user" }, orderBy: { createdAt: "asc" } });
  assert.equal(message.status, "completed");
  const tasks = await owner.db.researchTask.findMany({ where: { conversationId } });
  assert.deepEqual(tasks.filter((t) => !["completed", "failed", "skipped"].includes(t.status)).map((t) => [t.taskKey, t.status]), [], "no task left running");
  assert.ok(tasks.some((t) => t.status === "skipped" && t.error === "Stopped at the user's request"), "the stopped tasks say so");
});

test("a research deleted through the other process while it runs: the owner stops quietly and stays healthy, the rows are gone", async () => {
  const id = await runningResearch();
  const logsBefore = owner.logs().length;

  const res = await other.fetch(`/api/research/${id}`, { method: "DELETE" });
  assert.equal(res.status, 204, await res.clone().text());
  const answeredAt = Date.now();

  const lateCalls = await callsAfterStop(answeredAt);
  const logs = owner.logs().slice(logsBefore);
  assert.doesNotMatch(logs, /crashed|foreign key|P2003|P2025|unhandled|uncaught/i, "the owner logged no crash");
  assert.equal(lateCalls, 0, `no LLM call starts more than ${STOP_WITHIN_MS} ms after the delete`);
  const status = await owner.fetch("/api/research?limit=5");
  assert.equal(status.status, 200, "the owner answers its next request");
  assert.equal((await owner.fetch(`/api/research/${id}`)).status, 404);
  assert.equal(await owner.db.research.count({ where: { id } }), 0);
  assert.equal(await owner.db.serpQuery.count({ where: { researchId: id } }), 0);
  assert.equal(await owner.db.page.count({ where: { researchId: id } }), 0);
  assert.equal(await owner.db.extractedItem.count({ where: { researchId: id } }), 0);
  assert.equal(await treeRun(id), null, "the run row is gone");
});

/** A UI message stream read as it comes: its parts, and when it ended (0 while open). */
function openStream(url: string, headers: Record<string, string>) {
  const parts: { type: string; errorText?: string; data?: Record<string, unknown> }[] = [];
  const state = { endedAt: 0, parts };
  const controller = new AbortController();
  const done = (async () => {
    const res = await fetch(url, { headers, signal: controller.signal });
    // Not `await res.clone().text()` as the message: it would wait for the stream's end.
    if (res.status !== 200) assert.fail(`${res.status}: ${await res.text()}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let i;
      while ((i = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (frame.startsWith("data: ") && frame !== "data: [DONE]") parts.push(JSON.parse(frame.slice(6)));
      }
    }
    state.endedAt = Date.now();
  })().catch(() => undefined);
  return { state, done, close: () => controller.abort() };
}

test("a revoked token's stream and a signed-out session's stream end within seconds, saying why, and the run goes on", async () => {
  const id = await runningResearch();
  // Slower calls from now on: the research cannot end (and its streams with it) while the test watches.
  fakes.llm.configure({ latencyMs: 5_000 });
  const second = await createTestToken(owner.db, owner.user.id, { name: "stream reader" });
  const cookie = await signInSession(owner.url, owner.user.email, owner.user.password);
  const url = `${owner.url}/api/research/${id}/stream`;
  const byToken = openStream(url, { authorization: `Bearer ${second.token}` });
  const bySession = openStream(url, { cookie });
  const byOtherToken = openStream(url, { authorization: `Bearer ${owner.user.token}` });
  try {
    const streams = [byToken, bySession, byOtherToken];
    await waitFor(async () => (streams.every((s) => s.state.parts.some((p) => p.type === "data-snapshot")) ? true : undefined), 15_000, "the streams' snapshots");
    // Revoked and signed out through the other process: the owner hears of it at its next check.
    const revoked = await other.fetch(`/api/tokens/${second.tokenId}`, { method: "DELETE" });
    assert.equal(revoked.status, 200, await revoked.clone().text());
    await signOutSession(other.url, cookie);
    const at = Date.now();
    await Promise.race([Promise.all([byToken.done, bySession.done]), new Promise((r) => setTimeout(r, 6_000))]);
    for (const [what, s, reason] of [["token", byToken, /token .*revoked/], ["session", bySession, /signed out/]] as const) {
      assert.ok(s.state.endedAt > 0, `the ${what}'s stream ended`);
      assert.ok(s.state.endedAt - at < 4_000, `the ${what}'s stream ended ${s.state.endedAt - at} ms after`);
      const last = s.state.parts.at(-1)!;
      assert.equal(last.type, "error", `the ${what}'s stream ends with an error part: ${JSON.stringify(s.state.parts.slice(-3))}`);
      assert.match(last.errorText ?? "", reason);
    }
    // Another token's stream and the run itself go on.
    assert.equal(byOtherToken.state.endedAt, 0, "a stream opened with another token stays open");
    assert.equal((await getView(owner, id)).status, "running");
    assert.equal((await fetch(url, { headers: { authorization: `Bearer ${second.token}` } })).status, 401, "the revoked token opens no new stream");
  } finally {
    for (const s of [byToken, bySession, byOtherToken]) s.close();
    await other.postJson(`/api/research/${id}/cancel`, {});
  }
});
