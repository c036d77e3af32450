// Runs under leases: two server processes on one database never run the same run at once; when the
// owner is killed, the other takes the run over within the stale window with nothing duplicated;
// a cancel issued through one process stops a run executing in the other (and see
// runs-cancel-across-processes.test.ts for cancel and delete sent to the process that is not the owner).
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createAndStart, getView, waitForStatus } from "../helpers/research";
import { queriesPerLevel } from "@/lib/explore/tree";

// A beat every second: a run is stale 3 s after its owner's last beat (shorter beats let a process
// starved by a loaded machine lose its lease while alive, which is the platform working, not this test).
const HEARTBEAT_MS = 1000;
let fakes: Fakes;
let a: TestApp;
let b: TestApp;

before(async () => {
  fakes = await startFakes();
  const env = { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000", RUN_HEARTBEAT_MS: String(HEARTBEAT_MS) };
  a = await TestApp.start({ name: "runs", env });
  b = await TestApp.alongside(a, { env });
});
after(async () => {
  await b?.stop();
  await a?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

const runOf = (id: string) => a.db.run.findFirstOrThrow({ where: { kind: "tree", subjectId: id } });
const ownedBy = (owner: string | null, app: TestApp) => Boolean(owner?.includes(`:${app.pid}:`));

async function assertNoDuplicates(id: string) {
  const queries = await a.db.serpQuery.findMany({ where: { researchId: id } });
  const byDepth = queries.reduce<number[]>((n, q) => ((n[q.depth - 1] = (n[q.depth - 1] ?? 0) + 1), n), []);
  assert.deepEqual(byDepth, queriesPerLevel(2, 3), "no duplicate queries");
  const pages = await a.db.page.findMany({ where: { researchId: id } });
  assert.equal(pages.length, new Set(pages.map((p) => p.url)).size, "no duplicate pages");
  const items = await a.db.extractedItem.findMany({ where: { researchId: id } });
  assert.equal(items.length, new Set(items.map((i) => `${i.queryPageId}|${i.content}`)).size, "no item extracted twice");
}

test("one process claims a run, the other never runs it; kill -9 the owner and the other takes over", async () => {
  // Slow enough that the run is still going after the checks below (about 3 s of work remain).
  fakes.llm.configure({ latencyMs: 250 });
  const id = await createAndStart(a, { depth: 2, breadth: 3 });
  await waitFor(async () => ((await a.db.extractedItem.count({ where: { researchId: id } })) >= 1 ? true : undefined), 60_000, "a first finding");
  // For two heartbeats, the run stays with its owner: the other process sees a live lease.
  for (let i = 0; i < 4; i++) {
    const run = await runOf(id);
    assert.ok(ownedBy(run.leaseOwner, a), `owned by ${run.leaseOwner}`);
    assert.equal(run.attempt, 1);
    await new Promise((r) => setTimeout(r, HEARTBEAT_MS / 2));
  }
  assert.doesNotMatch(b.logs(), /took over|resuming/);

  await a.kill();
  const killedAt = Date.now();
  const taken = await waitFor(async () => {
    const run = await runOf(id);
    return ownedBy(run.leaseOwner, b) ? run : undefined;
  }, 15_000, "the other process to take the run over");
  const takeoverMs = Date.now() - killedAt;
  assert.ok(takeoverMs < 3 * HEARTBEAT_MS + 2 * HEARTBEAT_MS + 2_000, `took ${takeoverMs} ms`);
  assert.equal(taken.attempt, 2);

  const view = await waitForStatus(b, id, ["completed", "failed"]);
  assert.equal(view.status, "completed", view.error ?? "");
  await assertNoDuplicates(id);
  const run = await runOf(id);
  assert.equal(run.status, "completed");
  assert.equal(run.leaseOwner, null);
  await a.restart();
});

test("a cancel issued through one process stops the run executing in the other", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const id = await createAndStart(b, { depth: 2, breadth: 3 });
  await waitFor(async () => ((await a.db.extractedItem.count({ where: { researchId: id } })) >= 1 ? true : undefined), 60_000, "some findings");
  assert.ok(ownedBy((await runOf(id)).leaseOwner, b));

  const res = await a.postJson(`/api/research/${id}/cancel`, {});
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal((await getView(a, id)).status, "cancelled");
  // The owner hears of it through its cancel poll, stops, and settles the rows
  // (runs-cancel-across-processes.test.ts checks the 2 s bound with the default heartbeat).
  const run = await waitFor(async () => {
    const r = await runOf(id);
    return r.status === "cancelled" ? r : undefined;
  }, 10 * HEARTBEAT_MS, "the owner to stop the run");
  assert.equal(run.leaseOwner, null);
  const calls = fakes.llm.log.length;
  await new Promise((r) => setTimeout(r, 4 * HEARTBEAT_MS));
  assert.equal(fakes.llm.log.length, calls, "no LLM call after the run stopped");
  const view = await getView(a, id);
  assert.equal(view.status, "cancelled");
  assert.deepEqual(view.serp_queries.filter((q) => ["pending", "searching", "scraping", "analyzing"].includes(q.status)), []);
});
