// Queue mode's recovery: a worker killed with SIGKILL mid-run (while the run's job writes the report,
// or while it works on tree nodes); the other worker's stalled check puts the job back, it waits for
// the dead worker's run lease to expire, resumes the run from the database, and the research completes
// with every query, page and item exactly once. (In its own
// file: each file has five minutes, and a loaded machine needs them.)
import { after, afterEach, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import type { Fakes } from "../fakes";
import { LlmFaultProxy } from "../fakes/llm-fault-proxy";
import { waitFor, type TestApp } from "../helpers/app-server";
import { createAndStart, getView, waitForStatus } from "../helpers/research";
import { redisOrSkip, testRedisPrefix } from "../helpers/redis";
import { assertTreeExactlyOnce, endedTreeRunOf, treeRunOf, startTwoWorkers, tearDownQueueMode, TestWorker } from "../helpers/worker";

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
  // docs/deployment.md's bound: 1.25 × QUEUE_LOCK_MS (5 s) and one claim retry (1 s), with 2 s for this test's polling and a loaded machine.
  assert.ok(recoveryMs <= 1.25 * 5_000 + 1_000 + 2_000, `another worker owned the run ${recoveryMs} ms after the kill`);
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


test("a worker stopped (SIGSTOP) past its lock while its LLM call is out: after SIGCONT it makes no call for the work it lost, and every call made is in the usage", async () => {
  // Each worker of this test reaches the LLM through its own proxy: the provider's log tells whose a call is.
  const proxies = [new LlmFaultProxy({ upstream: fakes.llm.url }), new LlmFaultProxy({ upstream: fakes.llm.url })];
  for (const p of proxies) await p.start();
  for (const w of workers) await w.stop();
  const pair = [await TestWorker.start(app, "wa", { OPENAI_BASE_URL: proxies[0].url }), await TestWorker.start(app, "wb", { OPENAI_BASE_URL: proxies[1].url })];
  try {
    fakes.llm.configure({ latencyMs: 400 });
    const id = await createAndStart(app, { prompt: "Geothermal district heating", depth: 2, breadth: 2 });
    // The victim: a worker with a node job under way and an LLM call out (its reply comes while it is stopped).
    const victimAt = await waitFor(async () => {
      for (const [i, w] of pair.entries()) {
        const finished = new Set(w.nodeJobs(id, "done"));
        const job = w.nodeJobs(id, "started").find((j) => !finished.has(j));
        if (job && proxies[i].log.some((e) => e.endedAt === null)) return i;
      }
      return undefined;
    }, 120_000, "a worker with a node job and an LLM call under way");
    const victim = pair[victimAt];
    const victimProxy = proxies[victimAt];
    process.kill(victim.pid!, "SIGSTOP");
    // The victim notices the lost lock at its first timer after SIGCONT and stops the job there: the
    // moment its line arrives (a poll of the log would end the window later, when the victim, its slot
    // free again, may already work on another job).
    const lost = victim.nextLine(/job node-\S+ lost its lock/);
    // Past its 5 s lock, and the other worker's stalled check (every 1.25 s) has given its job to the other.
    await new Promise((r) => setTimeout(r, 8_000));
    const contAt = Date.now();
    process.kill(victim.pid!, "SIGCONT");
    const seen = await Promise.race([lost, new Promise<undefined>((r) => setTimeout(r, 10_000))]);
    assert.ok(seen, "the victim saw its lock lost within 10 s of SIGCONT");
    const lostAt = seen.at;
    const lostQuery = await app.db.serpQuery.findUniqueOrThrow({ where: { id: /job node-(\S+) lost/.exec(seen.line)![1] } });
    const view = await waitForStatus(app, id, ["completed", "failed"], 180_000);
    assert.equal(view.status, "completed", view.error ?? "");
    await assertTreeExactlyOnce(app, id, 2, 2);
    // Between SIGCONT and its stop, the victim sent nothing for the job it no longer held (a call that
    // names the lost job's query).
    const late = victimProxy.log.filter((e) => e.at >= contAt && e.at <= lostAt && e.prompt.includes(lostQuery.objective));
    assert.deepEqual(late.map((e) => e.agent), [], `the victim's calls for "${lostQuery.objective}" between SIGCONT and its stop (${lostAt - contAt} ms)`);
    // Every call the provider received is in the research's usage: settled, or (a reply lost with the
    // lock) unsettled. An unsettled call may also be one stopped by the lost lock before it was sent.
    const final = await waitFor(async () => {
      const v = await getView(app, id);
      return v.tokens.llm_calls_unsettled === 0 || fakes.llm.log.every((e) => e.endedAt !== null) ? v : undefined;
    }, 10_000, "the usage to settle");
    const received = fakes.llm.log.length;
    const { llm_calls: settled, llm_calls_unsettled: unsettled } = final.tokens;
    assert.ok(settled <= received && received <= settled + unsettled, `recorded ${settled} + ${unsettled} unsettled, the provider received ${received}`);
    console.log(`SIGSTOP for 8 s: the victim stopped its lost job ${lostAt - contAt} ms after SIGCONT; ${received} calls at the provider, ${final.tokens.llm_calls_unsettled} of them unsettled in the usage`);
  } finally {
    for (const w of pair) await w.stop();
    for (const p of proxies) await p.stop();
  }
});
}
