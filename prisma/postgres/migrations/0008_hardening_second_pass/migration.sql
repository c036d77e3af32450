-- DropIndex
DROP INDEX "AnswerRun_requestId_key";

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "llmCallsUnsettled" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Research" ADD COLUMN     "llmCallsUnsettled" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "pauseReason" TEXT,
ADD COLUMN     "pausedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "sessionVersion" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "AnswerRun_userId_requestId_key" ON "AnswerRun"("userId", "requestId");

