-- AlterTable
ALTER TABLE "ConversationMessage" ADD COLUMN     "phaseStartedAt" TIMESTAMP(3);

