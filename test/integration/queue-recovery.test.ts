// Queue mode's recovery: a worker killed with SIGKILL mid-run (while the run's job writes the report,
// or while it works on tree nodes); the other worker's stalled check puts the job back, it waits for
// the dead worker's run lease to expire, resumes the run from the database, and the research completes
// with every query, page and item exactly once. (In its own
// file: each file has five minutes, and a loaded machine needs them.)
import { after, afterEach, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import type { Fakes } from "../fakes";
import { waitFor, type TestApp } from "../helpers/app-server";
import { createAndStart, waitForStatus } from "../helpers/research";
import { redisOrSkip, testRedisPrefix } from "../helpers/redis";
import { assertTreeExactlyOnce, endedTreeRunOf, treeRunOf, startTwoWorkers, tearDownQueueMode, type TestWorker } from "../helpers/worker";

const PREFIX = testRedisPrefix("queue-recovery");

const skip = await redisOrSkip();
if (skip) test(`queue mode (SKIPPED: ${skip})`, { skip: true }, () => {});
else run();

function run() {

let fakes: Fakes;
let app: TestApp;
let workers: TestWorker[] = [];
before(async () => {
  ({ fakes, app, workers } = await startTwoWorkers("queue-recovery", PREFIX));
});
after(() => tearDownQueueMode({ prefix: PREFIX, workers, apps: [app], fakes }));
beforeEach(() => fakes.reset());
// A test that failed after killing its victim leaves the next one two workers all the same.
afterEach(async () => {
  for (const w of workers) if (!w.alive) await w.restart();
});
const runOf = (id: string) => treeRunOf(app, id);
const endedRunOf = (id: string) => endedTreeRunOf(app, id);
const assertExactlyOnce = (id: string, depth: number, breadth: number) => assertTreeExactlyOnce(app, id, depth, breadth);
/**
 * Every claim of the run was one processing of its job (each look at the tree, the killed one, the
 * survivor's; a retry after an error or a job put back by the stalled check is a processing too):
 * none outside a job, none twice in one. Read before a killed worker is started again (its log goes).
 */
const assertClaims = (attempt: number, jobId: string) => {
  const started = workers.flatMap((w) => w.started()).filter((j) => j === jobId).length;
  assert.equal(attempt, started, `the run was claimed ${attempt} times in ${started} processings of its job:\n${workers.map((w) => `--- ${w.name}\n${w.linesOf(jobId)}`).join("\n")}`);
};

test("a worker killed with SIGKILL mid-run: another resumes it, and it completes exactly once", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const id = await createAndStart(app, { depth: 3, breadth: 2 });
  // The run's job holds the run (and a worker slot) only while it looks at the tree and while it
  // writes the report; it parks between. Killed while it writes the report: the report's first LLM
  // request has come, so the lease's owner now is the look that writes it (a look that saw a query
  // still open may hold the lease a moment after the last query ends, and then parks).
  await waitFor(async () => (fakes.llm.calls("branch-summarizer") + fakes.llm.calls("report-writer") > 0 ? true : undefined), 120_000, "a worker to write the report");
  const owner = (await runOf(id)).leaseOwner ?? "";
  const victim = workers.find((w) => owner.includes(`:${w.pid}:`));
  assert.ok(victim, `a worker holds the run (${owner})`);
  const survivor = workers.find((w) => w !== victim)!;
  await victim.kill();
  const killedAt = Date.now();
  await waitFor(async () => ((await runOf(id)).leaseOwner?.includes(`:${survivor.pid}:`) ? true : undefined), 30_000, "the other worker to take the run");
  const recoveryMs = Date.now() - killedAt;
  const view = await waitForStatus(app, id, ["completed", "failed"], 180_000);
  assert.equal(view.status, "completed", view.error ?? "");
  assert.ok(view.report, "the report was written");
  await assertExactlyOnce(id, 3, 2);
  const run = await endedRunOf(id);
  assert.equal(run.status, "completed");
  assertClaims(run.attempt, `tree-${id}`);
  assert.deepEqual(survivor.executed().filter((j) => j === `tree-${id}`), [`tree-${id}`]);
  console.log(`recovery after SIGKILL: ${recoveryMs} ms`);
  await victim.restart();
});

test("a worker killed with SIGKILL while it works on tree nodes: the other redoes them, every query, page and item once", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const id = await createAndStart(app, { prompt: "Offshore wind supply chains", depth: 3, breadth: 2 });
  // The victim is a worker at work on a node of the tree while it neither holds the run nor has taken
  // up the run's job (no look at the tree of its own under way): it only does node work. Either worker
  // may be the one: nodes go to whichever has a slot free first, and one worker often takes a small
  // tree's every node.
  const inFlightOf = (w: TestWorker) => {
    const finished = new Set(w.nodeJobs(id, "done"));
    return w.nodeJobs(id, "started").find((j) => !finished.has(j));
  };
  const { victim, inFlight } = await waitFor(async () => {
    const owner = (await runOf(id)).leaseOwner ?? "";
    for (const w of workers) {
      const job = owner.includes(`:${w.pid}:`) || w.processing(`tree-${id}`) ? undefined : inFlightOf(w);
      if (job) return { victim: w, inFlight: job };
    }
    return undefined;
  }, 120_000, "a worker to work on a node while it does not hold the run");
  const survivor = workers.find((w) => w !== victim)!;
  await victim.kill();
  const view = await waitForStatus(app, id, ["completed", "failed"], 240_000);
  assert.equal(view.status, "completed", view.error ?? "");
  await assertExactlyOnce(id, 3, 2);
  const run = await endedRunOf(id);
  assertClaims(run.attempt, `tree-${id}`);
  assert.ok(survivor.logs().includes(`node job ${inFlight} (research ${id}) done`), "the killed node's job ran again on the survivor");
  const queries = await app.db.serpQuery.findMany({ where: { researchId: id } });
  assert.ok(queries.every((q) => q.status === "completed"), "every query completed");
  const links = await app.db.queryPage.findMany({ where: { query: { researchId: id } } });
  assert.ok(links.every((l) => l.status === "analyzed" || l.status === "failed"), "every page of every query analysed or failed, none left pending");
  await victim.restart();
});

}
