// A start's status as its poll reads it, against a real (migrated, temporary) database: "queued"
// only in queue mode, while no worker has claimed the start's run; in-process, the moment before the
// starting process claims its run already reads "processing", as the start's reply said (the poll
// used to read "queued" then, and clients — the tests' poll among them — took it for the end).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { db } = await import("../db/client");
const { createConversation } = await import("../db/conversations");
const { openRun } = await import("../db/runs");
const { deepResearchStatus } = await import("./service");
const { runRegistry } = await import("../runs/engines");

test("a start whose run is not claimed yet reads processing in process, queued in queue mode", async () => {
  const userId = (await db.user.create({ data: { email: "status@example.com", passwordHash: "x" } })).id;
  const { conversation, message } = await createConversation({
    userId, researchMode: "steering", objective: "Heat pumps", content: "Heat pumps", uploadedDatasets: "[]", clarificationContext: null, clarificationSessionId: null,
  });
  const run = await openRun({ kind: "deep-research", subjectId: conversation.id, userId, mode: "steering" });
  assert.equal(run.status, "queued");
  assert.equal(runRegistry.queueMode, false);
  assert.equal((await deepResearchStatus({ messageId: message.id, userId })).status, "processing");
  runRegistry.dispatchTo(async () => ({ jobId: "job-1", added: true }));
  assert.equal((await deepResearchStatus({ messageId: message.id, userId })).status, "queued");
  await db.$disconnect();
});
