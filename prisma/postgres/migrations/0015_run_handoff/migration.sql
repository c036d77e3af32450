-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "handoffAt" TIMESTAMP(3);
