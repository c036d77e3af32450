-- AlterTable
ALTER TABLE "Run" ADD COLUMN "pauseReason" TEXT;
ALTER TABLE "Run" ADD COLUMN "pausedAt" DATETIME;

