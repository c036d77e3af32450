// Queue mode's recovery: a worker killed with SIGKILL mid-run; the other worker's stalled check puts
// the job back, it waits for the dead worker's run lease to expire, resumes the run from the
// database, and the research completes with every query, page and item exactly once. (In its own
// file: each file has five minutes, and a loaded machine needs them.)
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createAndStart, waitForStatus } from "../helpers/research";
import { redisOrSkip, testRedisPrefix } from "../helpers/redis";
import { queueModeEnv, tearDownQueueMode, TestWorker } from "../helpers/worker";
import { queriesPerLevel } from "@/lib/explore/tree";

const PREFIX = testRedisPrefix("queue-recovery");
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
  const env = queueModeEnv(fakes.env, PREFIX, { QUEUE_LOCK_MS: "5000", QUEUE_WORKER_CONCURRENCY: "1", MAX_CONCURRENT_RUNS_PER_USER: "10" });
  // On PostgreSQL always: queue mode is the deployment of several processes on one server database
  // (SQLite's one writer at a time makes three busy processes wait on "database is locked").
  app = await TestApp.start({ name: "queue-recovery", env, database: "postgres" });
  workers = [await TestWorker.start(app, "w1"), await TestWorker.start(app, "w2")];
});
after(() => tearDownQueueMode({ prefix: PREFIX, workers, apps: [app], fakes }));
beforeEach(() => fakes.reset());

const runOf = (id: string) => app.db.run.findFirstOrThrow({ where: { kind: "tree", subjectId: id } });
/** The run row ends after the research's (once its last events are out). */
const endedRunOf = (id: string) => waitFor(async () => {
  const run = await runOf(id);
  return run.status === "queued" || run.status === "running" ? undefined : run;
}, 30_000, "the run row to end");

async function assertExactlyOnce(id: string, depth: number, breadth: number) {
  const queries = await app.db.serpQuery.findMany({ where: { researchId: id } });
  const byDepth = queries.reduce<number[]>((n, q) => ((n[q.depth - 1] = (n[q.depth - 1] ?? 0) + 1), n), []);
  assert.deepEqual(byDepth, queriesPerLevel(depth, breadth), "every query once");
  const pages = await app.db.page.findMany({ where: { researchId: id } });
  assert.equal(pages.length, new Set(pages.map((p) => p.url)).size, "no duplicate pages");
  const links = await app.db.queryPage.findMany({ where: { query: { researchId: id } } });
  assert.equal(links.length, new Set(links.map((l) => `${l.queryId}|${l.pageId}`)).size, "no page analysed twice for a query");
  const items = await app.db.extractedItem.findMany({ where: { researchId: id } });
  assert.ok(items.length > 0);
  assert.equal(items.length, new Set(items.map((i) => `${i.queryPageId}|${i.content}`)).size, "no item extracted twice");
}

test("a worker killed with SIGKILL mid-run: another resumes it, and it completes exactly once", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const id = await createAndStart(app, { depth: 3, breadth: 2 });
  await waitFor(async () => ((await app.db.extractedItem.count({ where: { researchId: id } })) >= 1 ? true : undefined), 60_000, "a first finding");
  const owner = (await runOf(id)).leaseOwner;
  const victim = workers.find((w) => owner?.includes(`:${w.pid}:`));
  assert.ok(victim, `a worker holds the run (${owner})`);
  const survivor = workers.find((w) => w !== victim)!;
  await victim.kill();
  const killedAt = Date.now();
  await waitFor(async () => ((await runOf(id)).leaseOwner?.includes(`:${survivor.pid}:`) ? true : undefined), 30_000, "the other worker to take the run");
  const recoveryMs = Date.now() - killedAt;
  const view = await waitForStatus(app, id, ["completed", "failed"], 180_000);
  assert.equal(view.status, "completed", view.error ?? "");
  await assertExactlyOnce(id, 3, 2);
  const run = await endedRunOf(id);
  assert.equal(run.status, "completed");
  assert.equal(run.attempt, 3, "claimed by the killed worker, then by the survivor, then by the report's job");
  assert.deepEqual(survivor.executed().filter((j) => j === `tree-${id}`), [`tree-${id}`]);
  console.log(`recovery after SIGKILL: ${recoveryMs} ms`);
  await victim.restart();
});

test("a worker killed with SIGKILL while it works on tree nodes: the other redoes them, every query, page and item once", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const id = await createAndStart(app, { prompt: "Offshore wind supply chains", depth: 3, breadth: 2 });
  await waitFor(async () => ((await runOf(id)).leaseOwner ? true : undefined), 60_000, "a worker to take the run");
  const owner = (await runOf(id)).leaseOwner;
  // The victim is the worker that does not hold the run (the coordinator): it only does node work.
  const victim = workers.find((w) => !owner?.includes(`:${w.pid}:`))!;
  const survivor = workers.find((w) => w !== victim)!;
  const started = () => [...victim.logs().matchAll(new RegExp(`node job (\\S+) \\(research ${id}\\) started`, "g"))].map((m) => m[1]);
  const finished = () => new Set([...victim.logs().matchAll(new RegExp(`node job (\\S+) \\(research ${id}\\) done`, "g"))].map((m) => m[1]));
  // Mid-node: a node job of the victim started and not finished.
  const inFlight = await waitFor(async () => started().find((j) => !finished().has(j)), 60_000, "the victim to work on a node");
  await victim.kill();
  const view = await waitForStatus(app, id, ["completed", "failed"], 240_000);
  assert.equal(view.status, "completed", view.error ?? "");
  await assertExactlyOnce(id, 3, 2);
  const run = await endedRunOf(id);
  assert.equal(run.attempt, 2, "the coordinator was not disturbed (its exploration's job, then the report's)");
  assert.ok(survivor.logs().includes(`node job ${inFlight} (research ${id}) done`), "the killed node's job ran again on the survivor");
  const queries = await app.db.serpQuery.findMany({ where: { researchId: id } });
  assert.ok(queries.every((q) => q.status === "completed"), "every query completed");
  const links = await app.db.queryPage.findMany({ where: { query: { researchId: id } } });
  assert.ok(links.every((l) => l.status === "analyzed" || l.status === "failed"), "every page of every query analysed or failed, none left pending");
  await victim.restart();
});

}
