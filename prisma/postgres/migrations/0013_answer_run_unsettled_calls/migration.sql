
-- AlterTable
ALTER TABLE "AnswerRun" ADD COLUMN     "llmCallsUnsettled" INTEGER NOT NULL DEFAULT 0;


