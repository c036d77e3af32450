-- AlterTable
ALTER TABLE "User" ADD COLUMN "startLockOwner" TEXT;
ALTER TABLE "User" ADD COLUMN "startLockUntil" DATETIME;

