// Follow-ups: a new research on a follow-up question that builds on what a finished research found
// (all of it, or one branch: "go deeper"), linked to it both ways, its agents told the findings.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createAndStart, getView, waitForStatus } from "../helpers/research";

let fakes: Fakes;
let app: TestApp;
before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "follow-up", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("going deeper on one branch: a linked research whose agents build on that branch's findings only", async () => {
  const parentId = await createAndStart(app, { depth: 1, breadth: 2 });
  const parent = await waitForStatus(app, parentId, ["completed", "failed"]);
  assert.equal(parent.status, "completed");
  const [branch, other] = parent.serp_queries;
  const findings = (queryId: string) =>
    parent.successful_scraped_websites.filter((w) => w.query_id === queryId).flatMap((w) => w.items.map((i) => i.content));
  assert.ok(findings(branch.query_id).length > 0 && findings(other.query_id).length > 0, "both branches found something");

  // Refused: an unknown branch, a blank question.
  const bad = await app.postJson(`/api/research/${parentId}/follow-up`, { question: "Deeper", query_id: "nope", depth: 1, breadth: 1 });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { field: string }).field, "query_id");
  const blank = await app.postJson(`/api/research/${parentId}/follow-up`, { question: "  ", depth: 1, breadth: 1 });
  assert.equal(blank.status, 400);
  assert.equal(((await blank.json()) as { field: string }).field, "question");

  const calls = fakes.llm.log.length;
  const res = await app.postJson(`/api/research/${parentId}/follow-up`, { question: "Which of these costs fall fastest?", query_id: branch.query_id, depth: 1, breadth: 1 });
  assert.equal(res.status, 202, await res.clone().text());
  const started = (await res.json()) as { research_id: string; links: { self: string } };
  const child = await waitForStatus(app, started.research_id, ["completed", "failed"]);
  assert.equal(child.status, "completed");
  assert.equal(child.initial_prompt, "Which of these costs fall fastest?");
  assert.deepEqual(child.follows, { research_id: parentId, initial_prompt: parent.initial_prompt, query_id: branch.query_id });
  assert.deepEqual(child.followup_questions, [], "the inherited findings are not shown as the researcher's questions");

  const linked = await getView(app, parentId);
  assert.deepEqual(
    linked.follow_ups.map((f) => [f.research_id, f.query_id, f.status]),
    [[started.research_id, branch.query_id, "completed"]],
  );

  // The child's query planning was told the branch's findings, and not the other branch's.
  const planning = fakes.llm.log.slice(calls).filter((e) => e.agent === "query-generator").map((e) => JSON.stringify(e.messages));
  assert.ok(planning.length > 0);
  assert.ok(findings(branch.query_id).some((f) => planning[0].includes(JSON.stringify(f).slice(1, -1))), "the branch's findings reach the planner");
  const mine = new Set(findings(branch.query_id));
  const othersOnly = findings(other.query_id).filter((f) => !mine.has(f));
  assert.ok(othersOnly.length > 0, "the other branch found things of its own");
  assert.ok(!othersOnly.some((f) => planning[0].includes(JSON.stringify(f).slice(1, -1))), "the other branch's findings do not reach it");
});

test("a follow-up needs a research that has ended", async () => {
  fakes.llm.configure({ latencyMs: 400 });
  const running = await createAndStart(app, { depth: 1, breadth: 1 });
  const res = await app.postJson(`/api/research/${running}/follow-up`, { question: "More?", depth: 1, breadth: 1 });
  assert.equal(res.status, 409);
  assert.match(((await res.json()) as { error: string }).error, /has ended \(status: running\)/);
  fakes.llm.configure({ latencyMs: 0 });
  await waitForStatus(app, running, ["completed", "failed"]);
});
