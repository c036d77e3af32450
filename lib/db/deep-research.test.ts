// Deep Research storage against a real (migrated, temporary) database: SQLite, or PostgreSQL with
// TEST_DATABASE=postgres. Parallel writers must lose no update; steps re-run after a crash must
// create nothing twice.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { useTestDatabase } from "./test-support";

await useTestDatabase();
const { db } = await import("./client");
const conversations = await import("./conversations");
const tasks = await import("./research-tasks");
const discoveries = await import("./discoveries");

let userId = "";
let conversationId = "";
before(async () => {
  userId = (await db.user.create({ data: { email: "dr@example.com", passwordHash: "x" } })).id;
  const { conversation } = await conversations.createConversation({
    userId, researchMode: "steering", objective: "o", content: "o", uploadedDatasets: "[]", clarificationContext: null, clarificationSessionId: null,
  });
  conversationId = conversation.id;
});

test("a level's tasks get unique ids and are created once", async () => {
  const drafts = [
    { type: "LITERATURE" as const, objective: "a" },
    { type: "LITERATURE" as const, objective: "b" },
    { type: "ANALYSIS" as const, objective: "c" },
  ];
  const [first, second] = await Promise.all([tasks.createLevelTasks(conversationId, 1, drafts), tasks.createLevelTasks(conversationId, 1, drafts)]);
  const created = first ?? second;
  assert.ok(created && (first === null) !== (second === null), "exactly one attempt creates the level");
  assert.deepEqual(created.map((t) => t.taskKey), ["lit-1-1", "lit-1-2", "ana-1-1"]);
  assert.equal((await tasks.tasksOf(conversationId)).length, 3);
  assert.equal((await conversations.getConversation({ id: conversationId }))!.currentLevel, 1);
});

test("many parallel updates of one task lose no update", async () => {
  const [task] = await tasks.tasksOf(conversationId, 1);
  await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      tasks.updateTask(task.id, (t) => ({ artifacts: JSON.stringify([...(JSON.parse(t.artifacts) as number[]), i]) })),
    ),
  );
  const after = JSON.parse((await tasks.tasksOf(conversationId, 1))[0].artifacts) as number[];
  assert.deepEqual([...after].sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i));
});

test("parallel world-state updates of different fields and of one list lose nothing", async () => {
  await Promise.all([
    ...Array.from({ length: 30 }, (_, i) =>
      conversations.updateConversation(conversationId, (c) => ({ keyInsights: JSON.stringify([...(JSON.parse(c.keyInsights) as string[]), `insight ${i}`]) })),
    ),
    conversations.updateConversation(conversationId, () => ({ conversationTitle: "Title" })),
    conversations.updateConversation(conversationId, () => ({ methodology: "Method" })),
  ]);
  const c = (await conversations.getConversation({ id: conversationId }))!;
  assert.equal((JSON.parse(c.keyInsights) as string[]).length, 30);
  assert.equal(c.conversationTitle, "Title");
  assert.equal(c.methodology, "Method");
  assert.equal(c.objective, "o", "the original objective is never changed");
});

test("the run guard: a second claim while active stores nothing", async () => {
  const before = (await conversations.messagesOf(conversationId)).length;
  assert.equal(await conversations.claimConversation({ id: conversationId, researchMode: "steering", content: "again", clarificationSessionId: null }), null);
  assert.equal((await conversations.messagesOf(conversationId)).length, before);
  await conversations.updateConversation(conversationId, () => ({ active: false }));
  const claims = await Promise.all([1, 2, 3].map((n) => conversations.claimConversation({ id: conversationId, researchMode: "steering", content: `m${n}`, clarificationSessionId: null })));
  assert.equal(claims.filter(Boolean).length, 1, "one of three simultaneous starts wins");
  assert.equal((await conversations.messagesOf(conversationId)).length, before + 1);
});

test("a level's discoveries are applied once; updates keep history, retired ones stay", async () => {
  const change = (claim: string, key: string | null, action: "new" | "update" | "retire" = "new") => ({
    key, action, claim, evidence: "e", novelty: "n", confidence: "high" as const, supportingTaskIds: ["lit-1-1"], items: [{ taskKey: "lit-1-1", itemId: `item-${claim}` }], reason: "r",
  });
  const results = await Promise.all([
    discoveries.applyDiscoveryChanges(conversationId, 1, [change("A", null), change("B", null)]),
    discoveries.applyDiscoveryChanges(conversationId, 1, [change("A", null), change("B", null)]),
  ]);
  assert.deepEqual(results.sort(), [false, true]);
  assert.equal(await discoveries.applyDiscoveryChanges(conversationId, 2, [change("A2", "disc-1", "update"), change("", "disc-2", "retire")]), true);
  const rows = await discoveries.discoveriesOf(conversationId);
  assert.deepEqual(rows.map((d) => [d.key, d.status, d.claim]), [["disc-1", "revised", "A2"], ["disc-2", "retired", "B"]]);
  assert.equal((JSON.parse(rows[0].history) as unknown[]).length, 2);
  assert.deepEqual(rows[0].evidenceItems.map((e) => e.itemId).sort(), ["item-A", "item-A2"]);
});

test("a literature task's child research is created and linked once, however many attempts race", async () => {
  const [task] = await tasks.tasksOf(conversationId, 1);
  const data = { userId, conversationId, parentRunId: null, prompt: "p", depth: 1, breadth: 1 };
  const ids = await Promise.all([1, 2, 3].map(() => tasks.childResearchOf(task.id, data)));
  const linked = (await tasks.tasksOf(conversationId, 1))[0].childResearchId;
  assert.ok(linked);
  assert.deepEqual(ids, [linked, linked, linked]);
  assert.equal(await db.research.count({ where: { conversationId } }), 1);
  assert.equal(await tasks.childResearchOf(task.id, data), linked, "a re-run finds the linked one");
});

test("a start whose run could not be opened is undone: a created conversation deleted, a claimed one released as it was", async () => {
  const userId = (await db.user.create({ data: { email: "dr-failed-start@example.com", passwordHash: "x" } })).id;
  const created = await conversations.createConversation({
    userId, researchMode: "steering", objective: "new", content: "new", uploadedDatasets: '[{"filename":"a.csv"}]', clarificationContext: null, clarificationSessionId: null,
  });
  await conversations.releaseFailedStart({ id: created.conversation.id, messageId: created.message.id, created: true, uploadedDatasets: "[]", error: "x" });
  assert.equal(await conversations.getConversation({ id: created.conversation.id }), null);

  const other = await conversations.createConversation({
    userId, researchMode: "steering", objective: "old", content: "old", uploadedDatasets: '[{"filename":"a.csv"}]', clarificationContext: null, clarificationSessionId: null,
  });
  await db.conversation.update({ where: { id: other.conversation.id }, data: { active: false } });
  const claimed = await conversations.claimConversation({ id: other.conversation.id, researchMode: "steering", content: "again", uploadedDatasets: '[{"filename":"a.csv"},{"filename":"b.csv"}]', clarificationSessionId: null });
  assert.ok(claimed);
  await conversations.releaseFailedStart({ id: other.conversation.id, messageId: claimed.message.id, created: false, uploadedDatasets: '[{"filename":"a.csv"}]', error: "The run could not be started." });
  const after = (await conversations.getConversation({ id: other.conversation.id }))!;
  assert.deepEqual([after.active, after.lastResult, after.lastError, after.uploadedDatasets], [false, "failed", "The run could not be started.", '[{"filename":"a.csv"}]']);
  const message = (await conversations.getMessage({ id: claimed.message.id }))!;
  assert.equal(message.status, "failed");
  assert.deepEqual(await conversations.activeConversationIds({ userId }), [], "nothing left claimed");
});

test("a start's message ends once: a second end (a process that lost the run) changes nothing", async () => {
  const c = (await conversations.getConversation({ id: conversationId }))!;
  const end = (status: "completed" | "failed", resultText: string) =>
    conversations.finishMessage(c.rootMessageId!, { status, error: null, resultText, suggestedNextSteps: "[]", completedAt: new Date() });
  assert.equal((await end("completed", "first"))?.status, "completed");
  assert.equal(await end("failed", "second"), null);
  const m = (await conversations.getMessage({ id: c.rootMessageId! }))!;
  assert.deepEqual([m.status, m.resultText], ["completed", "first"]);
});
