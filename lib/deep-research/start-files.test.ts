// A start whose conversation is running cannot take its files: it says so (409, the files named as
// not taken) instead of answering with the running start and dropping them; one without files still
// gets the running start (deduplicated). Against a real (migrated, temporary) database.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const uploads = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-start-files-"));
process.env.UPLOADS_DIR = uploads;
const { db } = await import("../db/client");
const { createConversation } = await import("../db/conversations");
const { openRun } = await import("../db/runs");
const { startDeepResearch } = await import("./service");
const { AppError } = await import("../errors");

test("files sent to a running conversation are refused with a reason; nothing is stored", async () => {
  const userId = (await db.user.create({ data: { email: "start-files@example.com", passwordHash: "x" } })).id;
  const { conversation } = await createConversation({
    userId, researchMode: "steering", objective: "Sales", content: "Sales", uploadedDatasets: "[]", clarificationContext: null, clarificationSessionId: null,
  });
  await openRun({ kind: "deep-research", subjectId: conversation.id, userId, mode: "steering" });
  try {
    await assert.rejects(
      startDeepResearch({ userId, input: { message: "Now these", conversationId: conversation.id }, files: [new File(["a,b\n1,2\n"], "more.csv")] }),
      (e: unknown) => e instanceof AppError && e.code === "conflict:conversation" && e.field === "files" && /attached file was not taken/.test(e.message),
    );
    assert.equal(fs.existsSync(path.join(uploads, conversation.id)), false, "no file stored");
    const stored = await db.conversation.findUnique({ where: { id: conversation.id } });
    assert.equal(stored?.uploadedDatasets, "[]");
    const again = await startDeepResearch({ userId, input: { message: "Still going?", conversationId: conversation.id } });
    assert.equal((again.body as { deduplicated?: boolean }).deduplicated, true);
  } finally {
    await db.$disconnect();
    fs.rmSync(uploads, { recursive: true, force: true });
  }
});
