// Queue mode (REDIS_URL set): the web process only queues runs (BullMQ on Redis) and serves; worker
// processes (`npm run worker`) execute them under the Run lease. Several runs spread over two
// workers; a worker killed with SIGKILL mid-run and the run still completes exactly once; Deep
// Research's start answers 202 queued with a job id and Bull Board at /admin/queues for admins only
// (queue-api.test.ts).
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import IORedis from "ioredis";
import type { Fakes } from "../fakes";
import { waitFor, type TestApp } from "../helpers/app-server";
import { createAndStart, getView, waitForStatus } from "../helpers/research";
import { readUiStream } from "../helpers/ui-stream";
import { conversation } from "../helpers/deep-research";
import { redisOrSkip, testRedisPrefix } from "../helpers/redis";
import { assertTreeExactlyOnce, endedDrRun, endedDrStart, endedTreeRunOf, TEST_REDIS_URL, treeRunOf, startTwoWorkers, tearDownQueueMode, type TestWorker } from "../helpers/worker";

const PREFIX = testRedisPrefix("queue-mode");

/** A run's logged events as [seq, type], in order (each stream entry holds one batch: lib/events/log.ts). */
async function loggedEvents(redis: IORedis, runId: string): Promise<[number, string][]> {
  const entries = await redis.xrange(`${PREFIX}:run-events:${runId}`, "-", "+");
  return entries.flatMap(([, fields]) => (JSON.parse(fields[fields.indexOf("events") + 1]) as [number, string][]).map(([seq, type]): [number, string] => [seq, type]));
}

const skip = await redisOrSkip();
if (skip) test(`queue mode (SKIPPED: ${skip})`, { skip: true }, () => {});
else run();

function run() {

let fakes: Fakes;
let app: TestApp;
let workers: TestWorker[] = [];
before(async () => {
  // An LLM outage is declared after 3 s without a success (20 s by default): the outage test sees it soon.
  // Four researches are started at once (the ordering test): their planning may overlap on a loaded
  // machine, so the user's planning limit (3 by default) is raised.
  ({ fakes, app, workers } = await startTwoWorkers("queue", PREFIX, { LLM_OUTAGE_AFTER_MS: "3000", MAX_CONCURRENT_PLANNING_CALLS_PER_USER: "8" }));
});
after(() => tearDownQueueMode({ prefix: PREFIX, workers, apps: [app], fakes }));
beforeEach(() => fakes.reset());
const runOf = (id: string) => treeRunOf(app, id);
const endedRunOf = (id: string) => endedTreeRunOf(app, id);
const assertExactlyOnce = (id: string, depth: number, breadth: number) => assertTreeExactlyOnce(app, id, depth, breadth);

test("the web process queues; runs spread over two workers and each runs once", async () => {
  fakes.llm.configure({ latencyMs: 40 });
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await createAndStart(app, { prompt: `Battery storage question ${i}`, depth: 1, breadth: 2 }));
  for (const id of ids) {
    const view = await waitForStatus(app, id, ["completed", "failed"], 180_000);
    assert.equal(view.status, "completed", view.error ?? "");
    await assertExactlyOnce(id, 1, 2);
    const run = await endedRunOf(id);
    assert.equal(run.status, "completed");
    // Claimed by each look of its job: the first parked while the nodes worked, the last wrote the report.
    const parked = workers.flatMap((w) => w.parked()).filter((j) => j === `tree-${id}`).length;
    assert.ok(parked >= 1, "the run's job parked while its nodes worked");
    assert.equal(run.attempt, parked + 1, "one claim per look at the tree");
  }
  // A parked run holds no worker slot: with one run slot per worker, the third tree was planned before
  // the first ended (a coordinator that waited in its slot kept the third until one of the others ended).
  const planned = await Promise.all(ids.map(async (id) => (await app.db.serpQuery.findFirstOrThrow({ where: { researchId: id }, orderBy: { createdAt: "asc" } })).createdAt.getTime()));
  const ended = await Promise.all(ids.map(async (id) => (await app.db.research.findUniqueOrThrow({ where: { id } })).completedAt!.getTime()));
  assert.ok(Math.max(...planned) < Math.min(...ended), `every tree planned (${planned.map((t) => t - planned[0])} ms) before the first ended (${Math.min(...ended) - planned[0]} ms)`);
  const [a, b] = workers.map((w) => w.executed());
  const expected = ids.map((id) => `tree-${id}`).sort();
  assert.deepEqual([...a, ...b].sort(), expected, "every run executed by a worker, once");
  assert.ok(a.length > 0 && b.length > 0, `both workers did work (w1: ${a.length}, w2: ${b.length})`);
  assert.match(app.logs(), /queue mode/);
});

test("one depth-3 tree: its query nodes are jobs, both workers do node work, each node once", async () => {
  fakes.llm.configure({ latencyMs: 60 });
  const id = await createAndStart(app, { prompt: "Grid-scale battery storage economics", depth: 3, breadth: 2 });
  const view = await waitForStatus(app, id, ["completed", "failed"], 240_000);
  assert.equal(view.status, "completed", view.error ?? "");
  assert.ok(view.report, "the report was written");
  await assertExactlyOnce(id, 3, 2);
  const queries = await app.db.serpQuery.findMany({ where: { researchId: id } });
  assert.ok(queries.every((q) => q.status === "completed"), "every query completed");
  // One run job: it planned the roots and parked, holding no worker slot, while the nodes worked; woken
  // by the last node (or its 5 s look), it found the tree explored and wrote the report, once.
  const run = await endedRunOf(id);
  assert.equal(run.status, "completed");
  const parked = workers.flatMap((w) => w.parked()).filter((j) => j === `tree-${id}`).length;
  assert.ok(parked >= 1, "the coordinator parked while the nodes worked");
  assert.ok(workers.some((w) => w.woken().includes(`tree-${id}`)), "the last node at work woke it (not only its periodic look)");
  assert.equal(run.attempt, parked + 1, "one claim per look at the tree");
  assert.deepEqual(workers.flatMap((w) => w.handedOff()).filter((j) => j === `tree-${id}`), [], "no phase hand-off: the look that finds the tree explored writes the report");
  assert.deepEqual(workers.flatMap((w) => w.executed()).filter((j) => j === `tree-${id}`), [`tree-${id}`], "the report's job ran once");
  const [a, b] = workers.map((w) => w.nodeJobs(id, "done"));
  assert.ok(a.length > 0 && b.length > 0, `both workers did node work (w1: ${a.length}, w2: ${b.length})`);
  // Every query's node job finished once (no retried or duplicated node did its work twice).
  assert.deepEqual([...a, ...b].sort(), queries.map((q) => `node-${q.id}`).sort());
  // Events numbered from the database by every process: the run's log (a Redis stream) holds each
  // number once, from the first node's events to the report's.
  const redis = new IORedis(TEST_REDIS_URL);
  try {
    const logged = await loggedEvents(redis, run.id);
    const seqs = logged.map(([seq]) => seq);
    const types = new Set(logged.map(([, type]) => type));
    assert.ok(seqs.length > 20, `the run's events are logged (${seqs.length})`);
    assert.equal(seqs.length, new Set(seqs).size, "no event number used twice");
    for (const type of ["query.created", "query.status", "item.extracted", "report.done"]) assert.ok(types.has(type), `a ${type} event`);
    // Among one user's node jobs the deeper go first (BullMQ: a lower priority number), so that of a
    // user's several trees the one started first also ends first.
    const priority = async (depth: number) => Number(await redis.hget(`${PREFIX}:tree-nodes:node-${queries.find((q) => q.depth === depth)!.id}`, "priority"));
    const [p1, p2, p3] = [await priority(1), await priority(2), await priority(3)];
    assert.ok(p3 < p2 && p2 < p1, `node priorities by depth 1, 2, 3: ${p1}, ${p2}, ${p3}`);
  } finally {
    redis.disconnect();
  }
});

test("a Deep Research start: its phases and its tasks are jobs that any worker takes, each task once, its events numbered once", async () => {
  // The write-up's pieces come over 1.5 s after a 1.5 s wait: a page loaded meanwhile is served its draft.
  fakes.llm.configure({ latencyMs: 60, latencyRules: [{ match: "dr-reply agent[\\s\\S]*<snippets>", latencyMs: 3_000 }] });
  const res = await app.postJson("/api/deep-research/start", { message: "Long-duration energy storage technologies", researchMode: "steering" });
  const { conversationId, jobId } = (await res.json()) as { conversationId: string; jobId: string };
  assert.equal(res.status, 202);
  // The web process serves the text a worker is writing (the draft is shared through Redis).
  const draft = await waitFor(async () => {
    const d = (await conversation(app, conversationId)).draft;
    return d?.text ? d : undefined;
  }, 180_000, "a draft of the write-up written by a worker");
  assert.ok(draft.text.startsWith("Iteration 1 on"), draft.text);
  const message = await endedDrStart(app, conversationId);
  assert.equal(message.status, "completed", message.error ?? "");
  assert.equal(draft.replyToId, message.id, "the draft names the start it answers");
  assert.equal((await conversation(app, conversationId)).draft, null, "no draft once the reply is saved");
  const tasks = await app.db.researchTask.findMany({ where: { conversationId } });
  assert.ok(tasks.length >= 2, `a level of several tasks (${tasks.length})`);
  assert.ok(tasks.every((t) => t.status === "completed"), JSON.stringify(tasks.map((t) => [t.taskKey, t.status, t.error])));
  const taskJobs = workers.map((w) => [...w.logs().matchAll(new RegExp(`task job (\\S+) \\(conversation ${conversationId}\\) done`, "g"))].map((m) => m[1]));
  assert.deepEqual(taskJobs.flat().sort(), tasks.map((t) => `task-${t.id}`).sort(), "each task's job did its work once");
  // The phases: the run's job went back in the queue after each but the last, and it parked (holding
  // no worker slot) while the level's tasks worked, until the last of them woke it.
  const run = await endedDrRun(app, conversationId);
  const handOffs = workers.flatMap((w) => w.handedOff()).filter((j) => j === jobId).length;
  const parked = workers.flatMap((w) => w.parked()).filter((j) => j === jobId).length;
  assert.equal(run.status, "completed");
  assert.ok(parked >= 1, "the run's job parked while the tasks worked");
  assert.ok(workers.some((w) => w.woken().includes(jobId)), "the level's last task job woke it (not only its periodic look)");
  assert.equal(run.attempt, handOffs + parked + 1, "one claim per phase and per look at the tasks");
  // Events from the run's jobs and its task jobs, numbered from the database: each number once.
  const redis = new IORedis(TEST_REDIS_URL);
  try {
    const logged = await loggedEvents(redis, run.id);
    const seqs = logged.map(([seq]) => seq);
    assert.equal(seqs.length, new Set(seqs).size, "no event number used twice");
    const types = new Set(logged.map(([, type]) => type));
    for (const type of ["phase", "task", "message"]) assert.ok(types.has(type), `a ${type} event`);
  } finally {
    redis.disconnect();
  }
  console.log(`Deep Research on two workers: ${handOffs + 1} phase jobs, parked ${parked} times, task jobs per worker ${taskJobs.map((j) => j.length).join(" / ")}`);
});

test("a Deep Research start stopped while its tasks work on the workers (its run's job parked): the task jobs stop and the loop ends at once", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const res = await app.postJson("/api/deep-research/start", { message: "Flow batteries for grid storage", researchMode: "steering" });
  const { conversationId, jobId } = (await res.json()) as { conversationId: string; jobId: string };
  assert.equal(res.status, 202);
  await waitFor(async () => ((await app.db.researchTask.count({ where: { conversationId, status: "running" } })) >= 1 ? true : undefined), 120_000, "a task at work");
  const stop = await app.postJson(`/api/deep-research/conversations/${conversationId}/stop`, {});
  assert.equal(stop.status, 202, await stop.clone().text());
  const message = await endedDrStart(app, conversationId);
  assert.equal(message.status, "completed", message.error ?? "");
  assert.notEqual(message.phase, "done", "it stopped before its iteration's end");
  const tasks = await app.db.researchTask.findMany({ where: { conversationId } });
  assert.ok(tasks.length >= 1);
  assert.deepEqual(tasks.filter((t) => !["completed", "failed", "skipped"].includes(t.status)).map((t) => [t.taskKey, t.status]), [], "the level's tasks all ended (done or stopped): none left running");
  assert.ok(workers.flatMap((w) => w.parked()).includes(jobId), "the run's job had parked");
  const run = await endedDrRun(app, conversationId);
  assert.equal(run.status, "completed");
  // Nothing is written after the run ended.
  const versions = tasks.map((t) => t.version);
  await new Promise((r) => setTimeout(r, 2_000));
  assert.deepEqual((await app.db.researchTask.findMany({ where: { conversationId } })).map((t) => t.version), versions);
});

test("a tree cancelled while its nodes run on the workers: node jobs stop, nothing is left running, the cancel stands", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const id = await createAndStart(app, { prompt: "Hydrogen storage in salt caverns", depth: 3, breadth: 2 });
  await waitFor(async () => ((await app.db.extractedItem.count({ where: { researchId: id } })) >= 1 ? true : undefined), 60_000, "a first finding");
  const res = await app.postJson(`/api/research/${id}/cancel`, {});
  assert.equal(res.status, 200, await res.clone().text());
  const run = await endedRunOf(id);
  assert.equal(run.status, "cancelled");
  const queries = await app.db.serpQuery.findMany({ where: { researchId: id } });
  const active = queries.filter((q) => ["pending", "searching", "scraping", "analyzing"].includes(q.status));
  assert.deepEqual(active.map((q) => q.status), [], "every unfinished query settled as stopped");
  // The node jobs stopped: nothing more is written after the run ended.
  const items = await app.db.extractedItem.count({ where: { researchId: id } });
  await new Promise((r) => setTimeout(r, 3_000));
  assert.equal(await app.db.extractedItem.count({ where: { researchId: id } }), items, "no item written after the run ended");
  assert.equal((await getView(app, id)).status, "cancelled");
});

test("an LLM outage while a tree's nodes run on the workers (its run's job parked): the research shows itself paused, then completes", async () => {
  fakes.llm.configure({ latencyMs: 80 });
  const id = await createAndStart(app, { prompt: "Compressed air energy storage in salt caverns", depth: 2, breadth: 3 });
  await waitFor(async () => ((await app.db.serpQuery.count({ where: { researchId: id, status: "completed" } })) >= 1 ? true : undefined), 60_000, "a finished query");
  fakes.llm.configure({ failAll: 503 });
  try {
    const paused = await waitFor(async () => {
      const view = await getView(app, id);
      return view.paused ? view : undefined;
    }, 30_000, "the research to show itself paused");
    assert.equal(paused.status, "running");
    assert.match(paused.paused!.reason, /Waiting for the LLM provider: HTTP 503/);
  } finally {
    fakes.llm.configure({ failAll: null });
  }
  const view = await waitForStatus(app, id, ["completed", "failed"], 120_000);
  assert.equal(view.status, "completed", view.error ?? "");
  assert.equal(view.paused, null, "no longer paused");
  await assertExactlyOnce(id, 2, 3);
});


test("20 researches, four at a time over two workers: every stream delivers its run's events in seq order", async () => {
  fakes.llm.configure({ latencyMs: 20 });
  const inversions: string[] = [];
  let events = 0;
  for (let round = 0; round < 5; round++) {
    await Promise.all(Array.from({ length: 4 }, async (_, i) => {
      const id = await createAndStart(app, { prompt: `Community solar, round ${round} part ${i}`, depth: 2, breadth: 2 });
      // Opened as a browser opens it right after the start: the snapshot, then every event after it.
      const parts = await readUiStream(app, `/api/research/${id}/stream`, { timeoutMs: 120_000 });
      assert.equal(parts.at(-1)?.type, "finish", `the stream of ${id} ended with the run`);
      const snapshot = parts.find((p) => p.type === "data-snapshot")!;
      let last = snapshot.data!.seq as number;
      for (const p of parts) {
        const seq = p.type === "data-snapshot" ? undefined : p.data?.seq;
        if (seq === undefined) continue;
        events++;
        if (seq <= last) inversions.push(`${id}: ${p.type} ${seq} after ${last}`);
        last = Math.max(last, seq);
      }
    }));
  }
  console.log(`20 queue-mode research streams: ${events} events, ${inversions.length} out of order`);
  assert.ok(events > 200, `events were streamed (${events})`);
  assert.deepEqual(inversions, [], "no event out of seq order");
});
}
