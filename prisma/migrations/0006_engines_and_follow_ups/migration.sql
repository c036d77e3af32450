-- CreateTable
CREATE TABLE "AnswerRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "requestId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "context" TEXT NOT NULL DEFAULT '',
    "budget" INTEGER NOT NULL,
    "maxBadAttempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "answer" TEXT,
    "references" TEXT NOT NULL DEFAULT '[]',
    "state" TEXT NOT NULL DEFAULT '{}',
    "usage" TEXT NOT NULL DEFAULT '{}',
    "totalTokens" INTEGER NOT NULL DEFAULT 0,
    "finalSeq" INTEGER,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    CONSTRAINT "AnswerRun_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerStep" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "gap" TEXT NOT NULL,
    "think" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "usage" TEXT NOT NULL,
    "trackers" TEXT NOT NULL,
    "seq" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnswerStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AnswerRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerPage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "title" TEXT,
    "content" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnswerPage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AnswerRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Conversation" (
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
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Conversation_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ConversationMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "conversationId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'completed',
    "researchMode" TEXT,
    "iteration" INTEGER NOT NULL DEFAULT 0,
    "level" INTEGER NOT NULL DEFAULT 0,
    "phase" TEXT,
    "state" TEXT NOT NULL DEFAULT '{}',
    "resultText" TEXT,
    "suggestedNextSteps" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "replyToId" TEXT,
    "clarificationSessionId" TEXT,
    "stopRequestedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    CONSTRAINT "ConversationMessage_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ResearchTask" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "conversationId" TEXT NOT NULL,
    "taskKey" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "objective" TEXT NOT NULL,
    "datasetFilenames" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "output" TEXT,
    "artifacts" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "childResearchId" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    CONSTRAINT "ResearchTask_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Discovery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "conversationId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "claim" TEXT NOT NULL,
    "evidence" TEXT NOT NULL,
    "novelty" TEXT NOT NULL,
    "confidence" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "supportingTaskIds" TEXT NOT NULL DEFAULT '[]',
    "history" TEXT NOT NULL DEFAULT '[]',
    "level" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Discovery_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DiscoveryEvidence" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "discoveryId" TEXT NOT NULL,
    "taskKey" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    CONSTRAINT "DiscoveryEvidence_discoveryId_fkey" FOREIGN KEY ("discoveryId") REFERENCES "Discovery" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ClarificationSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "datasets" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'questions_generated',
    "questions" TEXT NOT NULL DEFAULT '[]',
    "reasoning" TEXT NOT NULL DEFAULT '',
    "answers" TEXT NOT NULL DEFAULT '[]',
    "plan" TEXT,
    "feedbackHistory" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ClarificationSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    "conversationId" TEXT,
    "parentRunId" TEXT,
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

-- CreateIndex
CREATE UNIQUE INDEX "AnswerRun_requestId_key" ON "AnswerRun"("requestId");

-- CreateIndex
CREATE INDEX "AnswerRun_userId_createdAt_idx" ON "AnswerRun"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerStep_runId_step_key" ON "AnswerStep"("runId", "step");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerPage_runId_url_key" ON "AnswerPage"("runId", "url");

-- CreateIndex
CREATE INDEX "Conversation_userId_createdAt_idx" ON "Conversation"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "ConversationMessage_conversationId_createdAt_idx" ON "ConversationMessage"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "ResearchTask_conversationId_level_idx" ON "ResearchTask"("conversationId", "level");

-- CreateIndex
CREATE UNIQUE INDEX "ResearchTask_conversationId_taskKey_key" ON "ResearchTask"("conversationId", "taskKey");

-- CreateIndex
CREATE UNIQUE INDEX "Discovery_conversationId_key_key" ON "Discovery"("conversationId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "DiscoveryEvidence_discoveryId_itemId_key" ON "DiscoveryEvidence"("discoveryId", "itemId");

-- CreateIndex
CREATE INDEX "ClarificationSession_userId_idx" ON "ClarificationSession"("userId");

