-- AlterTable
ALTER TABLE "KnowledgeDocument" ADD COLUMN "encoding" TEXT;
