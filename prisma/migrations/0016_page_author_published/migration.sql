-- AlterTable
ALTER TABLE "Page" ADD COLUMN "author" TEXT;
ALTER TABLE "Page" ADD COLUMN "published" TEXT;






