




-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AnswerRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "requestId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "context" TEXT NOT NULL DEFAULT '',
    "sources" TEXT,
    "budget" INTEGER NOT NULL,
    "maxBadAttempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "answer" TEXT,
    "references" TEXT NOT NULL DEFAULT '[]',
    "state" TEXT NOT NULL DEFAULT '{}',
    "usage" TEXT NOT NULL DEFAULT '{}',
    "totalTokens" INTEGER NOT NULL DEFAULT 0,
    "llmCallsUnsettled" INTEGER NOT NULL DEFAULT 0,
    "finalSeq" INTEGER,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    CONSTRAINT "AnswerRun_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AnswerRun" ("answer", "budget", "completedAt", "context", "createdAt", "error", "finalSeq", "id", "maxBadAttempt", "question", "references", "requestId", "sources", "startedAt", "state", "status", "totalTokens", "usage", "userId") SELECT "answer", "budget", "completedAt", "context", "createdAt", "error", "finalSeq", "id", "maxBadAttempt", "question", "references", "requestId", "sources", "startedAt", "state", "status", "totalTokens", "usage", "userId" FROM "AnswerRun";
DROP TABLE "AnswerRun";
ALTER TABLE "new_AnswerRun" RENAME TO "AnswerRun";
CREATE INDEX "AnswerRun_userId_createdAt_idx" ON "AnswerRun"("userId", "createdAt");
CREATE UNIQUE INDEX "AnswerRun_userId_requestId_key" ON "AnswerRun"("userId", "requestId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

