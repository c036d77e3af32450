

-- AlterTable
ALTER TABLE "Page" ADD COLUMN     "author" TEXT,
ADD COLUMN     "published" TEXT;

