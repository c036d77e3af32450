-- CreateTable
CREATE TABLE "AnswerRun" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "AnswerRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnswerStep" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "gap" TEXT NOT NULL,
    "think" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "usage" TEXT NOT NULL,
    "trackers" TEXT NOT NULL,
    "seq" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnswerStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnswerPage" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "title" TEXT,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnswerPage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AnswerRun_requestId_key" ON "AnswerRun"("requestId");

-- CreateIndex
CREATE INDEX "AnswerRun_userId_createdAt_idx" ON "AnswerRun"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerStep_runId_step_key" ON "AnswerStep"("runId", "step");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerPage_runId_url_key" ON "AnswerPage"("runId", "url");

-- AddForeignKey
ALTER TABLE "AnswerRun" ADD CONSTRAINT "AnswerRun_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnswerStep" ADD CONSTRAINT "AnswerStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AnswerRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnswerPage" ADD CONSTRAINT "AnswerPage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AnswerRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

