-- AlterTable
ALTER TABLE "Run" ADD COLUMN "handoffAt" DATETIME;
