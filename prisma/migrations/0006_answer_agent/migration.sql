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

-- CreateIndex
CREATE UNIQUE INDEX "AnswerRun_requestId_key" ON "AnswerRun"("requestId");

-- CreateIndex
CREATE INDEX "AnswerRun_userId_createdAt_idx" ON "AnswerRun"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerStep_runId_step_key" ON "AnswerStep"("runId", "step");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerPage_runId_url_key" ON "AnswerPage"("runId", "url");

