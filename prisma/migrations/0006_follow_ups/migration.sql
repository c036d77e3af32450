-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Research" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "initialPrompt" TEXT NOT NULL,
    "followupQuestions" TEXT NOT NULL DEFAULT '[]',
    "followupAnswers" TEXT NOT NULL DEFAULT '[]',
    "depth" INTEGER,
    "breadth" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "report" TEXT,
    "error" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "llmCalls" INTEGER NOT NULL DEFAULT 0,
    "rootQueriesGenerated" BOOLEAN NOT NULL DEFAULT false,
    "pausedAt" DATETIME,
    "pauseReason" TEXT,
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "parentResearchId" TEXT,
    "parentQueryId" TEXT,
    "background" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    CONSTRAINT "Research_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Research_parentResearchId_fkey" FOREIGN KEY ("parentResearchId") REFERENCES "Research" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Research" ("breadth", "completedAt", "completionTokens", "createdAt", "depth", "error", "followupAnswers", "followupQuestions", "id", "initialPrompt", "llmCalls", "pauseReason", "pausedAt", "promptTokens", "report", "rootQueriesGenerated", "startedAt", "status", "updatedAt", "userId", "warnings") SELECT "breadth", "completedAt", "completionTokens", "createdAt", "depth", "error", "followupAnswers", "followupQuestions", "id", "initialPrompt", "llmCalls", "pauseReason", "pausedAt", "promptTokens", "report", "rootQueriesGenerated", "startedAt", "status", "updatedAt", "userId", "warnings" FROM "Research";
DROP TABLE "Research";
ALTER TABLE "new_Research" RENAME TO "Research";
CREATE INDEX "Research_userId_createdAt_idx" ON "Research"("userId", "createdAt");
CREATE INDEX "Research_status_idx" ON "Research"("status");
CREATE INDEX "Research_parentResearchId_idx" ON "Research"("parentResearchId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

