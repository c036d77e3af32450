// Queue mode's API (REDIS_URL set): Deep Research's start answers 202 queued with a job id and its
// status moves queued → processing → completed once a worker runs it; Bull Board at /admin/queues
// for administrators only (404 for everyone else, signed out included). Workers: queue-mode.test.ts.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { Queue } from "bullmq";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";
import { redisOrSkip, testRedisPrefix } from "../helpers/redis";
import { endedDrRun, queueModeEnv, tearDownQueueMode, TEST_REDIS_URL, TestWorker } from "../helpers/worker";

const ROOT = path.resolve(import.meta.dirname, "../..");
// A beat every second (a dead worker's run lease expires 3 s after its last beat) and a 5 s job lock
// (its job is back in the queue within two lock periods).
const HEARTBEAT_MS = 1000;
const PREFIX = testRedisPrefix("queue-api");
let fakes: Fakes;
let app: TestApp;
let workers: TestWorker[] = [];

const skip = await redisOrSkip();
if (skip) test(`queue mode (SKIPPED: ${skip})`, { skip: true }, () => {});
else run();

function run() {

before(async () => {
  fakes = await startFakes();
  // One run per worker at a time: several runs must spread over both; a 5 s job lock (a dead
  // worker's job is back in the queue within two lock periods).
  const env = queueModeEnv(fakes.env, PREFIX, { QUEUE_LOCK_MS: "5000", QUEUE_WORKER_CONCURRENCY: "1", QUEUE_PART_CONCURRENCY: "1", MAX_CONCURRENT_RUNS_PER_USER: "10" });
  // On PostgreSQL always: queue mode is the deployment of several processes on one server database
  // (SQLite's one writer at a time makes three busy processes wait on "database is locked").
  app = await TestApp.start({ name: "queue-api", env, database: "postgres" });
});
after(() => tearDownQueueMode({ prefix: PREFIX, workers, apps: [app], fakes }));
beforeEach(() => fakes.reset());

test("Deep Research start answers 202 queued with a job id; status goes queued → processing → completed", async () => {
  // No worker yet: the start stays queued (the web process never executes it).
  fakes.llm.configure({ latencyMs: 60 });
  const res = await app.postJson("/api/deep-research/start", { message: "Solid-state batteries for grid storage", researchMode: "steering" });
  const body = (await res.json()) as Record<string, string>;
  assert.equal(res.status, 202, JSON.stringify(body));
  assert.deepEqual(Object.keys(body).sort(), ["conversationId", "jobId", "messageId", "pollUrl", "status", "userId"]);
  assert.equal(body.status, "queued");
  assert.equal(body.jobId, `deep-research-${body.conversationId}`);
  assert.equal(body.userId, app.user.id);
  assert.equal(body.pollUrl, `/api/deep-research/status/${body.messageId}`);
  const status = async () => ((await (await app.fetch(body.pollUrl)).json()) as { status: string }).status;
  for (let i = 0; i < 3; i++) {
    assert.equal(await status(), "queued");
    await new Promise((r) => setTimeout(r, HEARTBEAT_MS));
  }
  assert.ok(await queueJob(body.jobId), "the job is in Redis");
  workers = [await TestWorker.start(app, "w3")];
  // Queued, as read above; the worker may claim the job before its start has returned.
  const seen: string[] = ["queued"];
  await waitFor(async () => {
    const s = await status();
    if (seen.at(-1) !== s) seen.push(s);
    return s === "completed" || s === "failed" ? s : undefined;
  }, 180_000, "the Deep Research start to end");
  assert.deepEqual(seen, ["queued", "processing", "completed"]);
  // One phase per job: the run's job went back in the queue after each phase but the last, and each
  // claim took the run up where the one before had left it (a continuation, not a recovery); in the
  // execute phase it parked while the level's tasks worked, and was woken to look again.
  const run = await endedDrRun(app, body.conversationId);
  const handOffs = workers[0].handedOff().filter((j) => j === body.jobId).length;
  const parked = workers[0].parked().filter((j) => j === body.jobId).length;
  assert.ok(handOffs >= 5, `the start ran phase by phase (${handOffs} hand-offs)`);
  assert.equal(run.status, "completed");
  assert.equal(run.attempt, handOffs + parked + 1, "one claim per phase and per look at the tasks");
  const conversation = await app.db.conversation.findUniqueOrThrow({ where: { id: body.conversationId } });
  assert.equal(conversation.lastResult, "completed", "no phase was taken for a recovery");
  // One job per task: each of the level's tasks ran in its own job, once.
  const tasks = await app.db.researchTask.findMany({ where: { conversationId: body.conversationId } });
  assert.ok(tasks.length > 0 && tasks.every((t) => t.status === "completed"), JSON.stringify(tasks.map((t) => [t.taskKey, t.status, t.error])));
  const taskJobs = [...workers[0].logs().matchAll(new RegExp(`task job (\\S+) \\(conversation ${body.conversationId}\\) done`, "g"))].map((m) => m[1]);
  assert.deepEqual(taskJobs.sort(), tasks.map((t) => `task-${t.id}`).sort());
});

async function queueJob(jobId: string) {
  const queue = new Queue("runs", { connection: { url: TEST_REDIS_URL }, prefix: PREFIX });
  try {
    return await queue.getJob(jobId);
  } finally {
    await queue.close();
  }
}

test("/admin/queues is 404 for a non-admin and Bull Board for an admin", async () => {
  const other = await createTestUser(app.db);
  for (const token of [app.user.token, other.token]) {
    for (const p of ["/admin/queues", "/admin/queues/api/queues"]) {
      const res = await app.fetch(p, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 404, `${p}: ${(await res.text()).slice(0, 300)}`);
    }
  }
  // Signed out: no dashboard either (not a sign-in redirect).
  assert.equal((await fetch(`${app.url}/admin/queues`, { redirect: "manual" })).status, 404);
  execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "token.ts"), "admin", "--email", app.user.email], {
    cwd: ROOT,
    env: { ...process.env, ...app.serverEnv, QUARRY_SKIP_MIGRATE: "1" },
    stdio: "pipe",
  });
  const page = await app.fetch("/admin/queues");
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<div id="root">|bull/i);
  const api = await app.fetch("/admin/queues/api/queues");
  assert.equal(api.status, 200);
  const { queues } = (await api.json()) as { queues: { name: string; counts: Record<string, number> }[] };
  const runs = queues.find((q) => q.name === "runs");
  assert.ok(runs, JSON.stringify(queues.map((q) => q.name)));
  // The Deep Research job of the test before shows as completed (the counts exist when run alone).
  assert.equal(typeof runs.counts.completed, "number", JSON.stringify(runs.counts));
  // Still nothing for the other user.
  assert.equal((await app.fetch("/admin/queues", { headers: { authorization: `Bearer ${other.token}` } })).status, 404);
});
}
