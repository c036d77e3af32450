-- CreateTable
CREATE TABLE "PlanningCall" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subjectId" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "llmCalls" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PlanningCall_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PlanningCall_userId_startedAt_idx" ON "PlanningCall"("userId", "startedAt");

-- CreateIndex
CREATE INDEX "PlanningCall_subjectId_idx" ON "PlanningCall"("subjectId");

-- AddForeignKey
ALTER TABLE "PlanningCall" ADD CONSTRAINT "PlanningCall_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

