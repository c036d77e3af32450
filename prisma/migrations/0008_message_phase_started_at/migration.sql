-- AlterTable
ALTER TABLE "ConversationMessage" ADD COLUMN "phaseStartedAt" DATETIME;

