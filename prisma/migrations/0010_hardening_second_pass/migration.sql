-- DropIndex
DROP INDEX "AnswerRun_requestId_key";

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "pauseReason" TEXT;
ALTER TABLE "Run" ADD COLUMN "pausedAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Conversation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "researchMode" TEXT NOT NULL DEFAULT 'semi-autonomous',
    "objective" TEXT NOT NULL,
    "currentObjective" TEXT,
    "evolvingObjective" TEXT,
    "conversationTitle" TEXT,
    "keyInsights" TEXT NOT NULL DEFAULT '[]',
    "methodology" TEXT,
    "currentHypothesis" TEXT,
    "suggestedNextSteps" TEXT NOT NULL DEFAULT '[]',
    "currentLevel" INTEGER NOT NULL DEFAULT 0,
    "reflectedLevel" INTEGER NOT NULL DEFAULT 0,
    "discoveredLevel" INTEGER NOT NULL DEFAULT 0,
    "uploadedDatasets" TEXT NOT NULL DEFAULT '[]',
    "clarificationContext" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "rootMessageId" TEXT,
    "lastResult" TEXT,
    "lastError" TEXT,
    "runEndedAt" DATETIME,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "llmCalls" INTEGER NOT NULL DEFAULT 0,
    "llmCallsUnsettled" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Conversation_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Conversation" ("active", "clarificationContext", "completionTokens", "conversationTitle", "createdAt", "currentHypothesis", "currentLevel", "currentObjective", "discoveredLevel", "evolvingObjective", "id", "keyInsights", "lastError", "lastResult", "llmCalls", "methodology", "objective", "promptTokens", "reflectedLevel", "researchMode", "rootMessageId", "runEndedAt", "suggestedNextSteps", "updatedAt", "uploadedDatasets", "userId", "version") SELECT "active", "clarificationContext", "completionTokens", "conversationTitle", "createdAt", "currentHypothesis", "currentLevel", "currentObjective", "discoveredLevel", "evolvingObjective", "id", "keyInsights", "lastError", "lastResult", "llmCalls", "methodology", "objective", "promptTokens", "reflectedLevel", "researchMode", "rootMessageId", "runEndedAt", "suggestedNextSteps", "updatedAt", "uploadedDatasets", "userId", "version" FROM "Conversation";
DROP TABLE "Conversation";
ALTER TABLE "new_Conversation" RENAME TO "Conversation";
CREATE INDEX "Conversation_userId_createdAt_idx" ON "Conversation"("userId", "createdAt");
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
    "llmCallsUnsettled" INTEGER NOT NULL DEFAULT 0,
    "rootQueriesGenerated" BOOLEAN NOT NULL DEFAULT false,
    "pausedAt" DATETIME,
    "pauseReason" TEXT,
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "parentResearchId" TEXT,
    "parentQueryId" TEXT,
    "background" TEXT,
    "conversationId" TEXT,
    "parentRunId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    CONSTRAINT "Research_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Research_parentResearchId_fkey" FOREIGN KEY ("parentResearchId") REFERENCES "Research" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Research" ("background", "breadth", "completedAt", "completionTokens", "conversationId", "createdAt", "depth", "error", "followupAnswers", "followupQuestions", "id", "initialPrompt", "llmCalls", "parentQueryId", "parentResearchId", "parentRunId", "pauseReason", "pausedAt", "promptTokens", "report", "rootQueriesGenerated", "startedAt", "status", "updatedAt", "userId", "warnings") SELECT "background", "breadth", "completedAt", "completionTokens", "conversationId", "createdAt", "depth", "error", "followupAnswers", "followupQuestions", "id", "initialPrompt", "llmCalls", "parentQueryId", "parentResearchId", "parentRunId", "pauseReason", "pausedAt", "promptTokens", "report", "rootQueriesGenerated", "startedAt", "status", "updatedAt", "userId", "warnings" FROM "Research";
DROP TABLE "Research";
ALTER TABLE "new_Research" RENAME TO "Research";
CREATE INDEX "Research_userId_createdAt_idx" ON "Research"("userId", "createdAt");
CREATE INDEX "Research_status_idx" ON "Research"("status");
CREATE INDEX "Research_parentResearchId_idx" ON "Research"("parentResearchId");
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT NOT NULL,
    "startLockOwner" TEXT,
    "startLockUntil" DATETIME,
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_User" ("createdAt", "email", "id", "name", "passwordHash", "startLockOwner", "startLockUntil") SELECT "createdAt", "email", "id", "name", "passwordHash", "startLockOwner", "startLockUntil" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "AnswerRun_userId_requestId_key" ON "AnswerRun"("userId", "requestId");

