// A Deep Research server killed (SIGKILL) mid-iteration resumes on restart from the last completed
// phase and completes with every task, discovery and message exactly once.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { conversation, pollUntilDone, startDr } from "../helpers/deep-research";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({
    name: "deep-research-resume",
    env: { ...fakes.env, LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "2", SCRAPE_TIMEOUT_MS: "2000", RUN_HEARTBEAT_MS: "500" },
  });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("killed mid-iteration, the loop resumes and completes with everything exactly once", async () => {
  fakes.llm.configure({ latencyMs: 60 });
  const start = await startDr(app, { message: "Sodium-ion batteries #stop-at-3", researchMode: "fully-autonomous" });
  // Kill it in iteration 2, once level 2's tasks are under way (level 1 is done and replied to).
  await waitFor(async () => {
    const tasks = await app.db.researchTask.findMany({ where: { conversationId: start.conversationId, level: 2 } });
    return tasks.some((t) => t.status === "running") ? true : undefined;
  }, 120_000, "level 2 running");
  await app.kill();
  const root = await app.db.conversationMessage.findUniqueOrThrow({ where: { id: start.messageId } });
  assert.equal(root.status, "processing");
  assert.equal(root.iteration, 2);

  await app.restart();
  const done = (await pollUntilDone(app, start.pollUrl)).at(-1)!;
  assert.equal(done.status, "completed", JSON.stringify(done));
  const c = await conversation(app, start.conversationId);
  const replies = c.messages.filter((m) => m.role === "assistant");
  assert.deepEqual(replies.map((m) => m.iteration), [1, 2, 3], "one reply per iteration");
  assert.deepEqual(c.plan.map((t) => t.id), ["lit-1-1", "lit-1-2", "lit-2-1", "lit-2-2", "lit-3-1", "lit-3-2"], "every task once");
  assert.ok(c.plan.every((t) => t.status === "completed"), JSON.stringify(c.plan.map((t) => [t.id, t.status, t.error])));
  // One child research per task, and no duplicated extraction in any of them.
  const children = await app.db.research.findMany({ where: { conversationId: start.conversationId } });
  assert.equal(children.length, 6);
  for (const child of children) {
    const items = await app.db.extractedItem.findMany({ where: { researchId: child.id } });
    assert.equal(items.length, new Set(items.map((i) => `${i.queryPageId}|${i.content}`)).size);
  }
  // Discoveries: one new per task with evidence per level, never duplicated.
  const keys = c.discoveries.map((d) => d.id);
  assert.equal(keys.length, new Set(keys).size);
  // The fake records one new discovery per task with snippets (and revises an earlier one per level):
  // a level's discovery step run twice would create more.
  const stored = await app.db.discovery.findMany({ where: { conversationId: start.conversationId } });
  const tasksWithItems = (await app.db.researchTask.findMany({ where: { conversationId: start.conversationId } })).filter((t) => JSON.parse(t.artifacts).itemCount > 0);
  assert.equal(stored.length, tasksWithItems.length, "a discovery was stored twice");
  for (const d of stored) assert.equal((JSON.parse(d.history) as { action: string }[]).filter((h) => h.action === "new").length, 1);
  assert.equal(c.state.currentLevel, 3);
  // The guard records that this start was recovered after its process died (the message says completed).
  assert.equal(c.deepResearchRun.lastResult, "stale_recovered");
  assert.equal(c.deepResearchRun.isRunning, false);
  assert.equal((await app.db.conversation.findUniqueOrThrow({ where: { id: start.conversationId } })).reflectedLevel, 3);
  assert.equal(c.state.keyInsights.length, 3, "one reflection per level");
  assert.match(app.logs(), /resuming|took over/);
});
