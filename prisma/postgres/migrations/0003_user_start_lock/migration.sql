-- AlterTable
ALTER TABLE "User" ADD COLUMN     "startLockOwner" TEXT,
ADD COLUMN     "startLockUntil" TIMESTAMP(3);

