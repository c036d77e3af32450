// Queue mode's API (REDIS_URL set): Deep Research's start answers 202 queued with a job id and its
// status moves queued → processing → completed once a worker runs it; Bull Board at /admin/queues
// for administrators only (404 for everyone else, signed out included). Workers: queue-mode.test.ts.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { startFakes, type Fakes } from "../fakes";
import { freePort, TestApp, waitFor } from "../helpers/app-server";
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

/** A redis-server of the test's own on `port` (nothing saved), to stop and start again. */
async function ownRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  try {
    await waitFor(async () => {
      const probe = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on("error", () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === "PONG" ? true : undefined;
      } catch {
        return undefined;
      } finally {
        probe.disconnect();
      }
    }, 10_000, "redis-server to answer");
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return child;
}

const stopped = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r)));

test("Redis down: every start is a 503 with Retry-After at once, storing nothing; Redis hung: a start answers within QUEUE_ENQUEUE_TIMEOUT_MS and its run is queued when Redis comes back", async () => {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let redis = await ownRedis(port);
  const prefix = testRedisPrefix("queue-down");
  const down = await TestApp.start({ name: "queue-down", env: queueModeEnv(fakes.env, prefix, { REDIS_URL: url, QUEUE_ENQUEUE_TIMEOUT_MS: "1000", MAX_CONCURRENT_RUNS_PER_USER: "20" }) });
  const jobOf = async (jobId: string) => {
    const queue = new Queue("runs", { connection: { url }, prefix });
    try {
      return await queue.getJob(jobId);
    } finally {
      await queue.close();
    }
  };
  try {
    const draft = async () => {
      const q = await down.postJson("/api/research/questions", { initial_prompt: "Heat pumps in cold climates", num_questions: 1 });
      assert.equal(q.status, 200, await q.clone().text());
      return (await q.json()) as { research_id: string; followup_questions: string[] };
    };
    // Every request is bounded: a start that hangs fails the test instead of holding it.
    const within = { signal: AbortSignal.timeout(10_000) };
    const treeStart = (d: { research_id: string; followup_questions: string[] }) =>
      down.postJson("/api/research/start", { research_id: d.research_id, followup_answers: d.followup_questions.map(() => "Europe"), depth: 1, breadth: 1 }, { signal: AbortSignal.timeout(10_000) });
    // Up: a start queues its job.
    const first = await draft();
    assert.equal((await treeStart(first)).status, 202);
    await waitFor(async () => ((await jobOf(`tree-${first.research_id}`)) ? true : undefined), 10_000, "the first start's job");

    // Drafted while Redis is up (its questions' LLM call takes a slot of the fleet's LLM limit, in Redis).
    const second = await draft();
    redis.kill("SIGKILL");
    await stopped(redis);
    const counts = async () => ({
      researches: await down.db.research.count(),
      conversations: await down.db.conversation.count(),
      answers: await down.db.answerRun.count(),
      runs: await down.db.run.count(),
    });
    const before = await counts();
    const starts: [string, () => Promise<Response>][] = [
      ["tree start", () => treeStart(second)],
      ["tree create-and-start", () => down.postJson("/api/research/start", { initial_prompt: "Heat pumps", followup_answers: [], depth: 1, breadth: 1 }, within)],
      ["Deep Research start", () => down.postJson("/api/deep-research/start", { message: "District heating networks", researchMode: "steering" }, within)],
      ["answer", () => down.postJson("/api/v1/query", { q: "What is a heat pump's COP?" }, within)],
    ];
    for (const [what, start] of starts) {
      const t0 = performance.now();
      const res = await start();
      const ms = performance.now() - t0;
      const body = (await res.json()) as { code?: string; error?: string };
      assert.equal(res.status, 503, `${what}: ${JSON.stringify(body)}`);
      assert.equal(body.code, "unavailable:queue", what);
      assert.ok(Number(res.headers.get("retry-after")) > 0, `${what}: Retry-After`);
      assert.ok(ms < 1_000, `${what} answered in ${ms.toFixed(0)} ms`);
    }
    assert.deepEqual(await counts(), before, "nothing was stored by the refused starts");
    assert.equal((await down.db.research.findUniqueOrThrow({ where: { id: second.research_id } })).status, "draft", "the draft was not started");

    // Back on the same port: starts queue again once the connection is back (ioredis retries within 2 s).
    redis = await ownRedis(port);
    const started = await waitFor(async () => {
      const res = await treeStart(second);
      return res.status === 202 ? true : (assert.equal(res.status, 503, await res.text()), undefined);
    }, 15_000, "a start to be accepted once Redis is back");
    assert.ok(started);
    await waitFor(async () => ((await jobOf(`tree-${second.research_id}`)) ? true : undefined), 10_000, "the start's job once Redis is back");

    // Hung (stopped, its connections open): a start waits QUEUE_ENQUEUE_TIMEOUT_MS at most, then answers
    // 202 queued with the id its job will have; its run stays queued and its job is added when Redis answers again.
    redis.kill("SIGSTOP");
    try {
      const t0 = performance.now();
      const res = await down.postJson("/api/deep-research/start", { message: "Seasonal thermal storage", researchMode: "steering" }, { signal: AbortSignal.timeout(10_000) });
      const ms = performance.now() - t0;
      const body = (await res.json()) as { conversationId: string; jobId?: string; status: string };
      assert.equal(res.status, 202, JSON.stringify(body));
      assert.equal(body.status, "queued");
      assert.equal(body.jobId, `deep-research-${body.conversationId}`);
      assert.ok(ms < 1_000 + 1_500, `answered in ${ms.toFixed(0)} ms with Redis hung`);
      redis.kill("SIGCONT");
      await waitFor(async () => ((await jobOf(`deep-research-${body.conversationId}`)) ? true : undefined), 15_000, "the hung start's job once Redis answers");
      const run = await down.db.run.findFirstOrThrow({ where: { kind: "deep-research", subjectId: body.conversationId } });
      assert.equal(run.status, "queued", "its run waits for a worker");
    } finally {
      redis.kill("SIGCONT");
    }
  } finally {
    await down.stop();
    redis.kill("SIGKILL");
    await stopped(redis);
  }
});
}
