-- AlterTable
ALTER TABLE "KnowledgeDocument" ADD COLUMN "sortName" TEXT NOT NULL DEFAULT '';

-- The documents added before: their names lower-cased (SQLite's lower() folds ASCII letters; new names are folded in full).
UPDATE "KnowledgeDocument" SET "sortName" = lower("name");

-- CreateIndex
CREATE INDEX "KnowledgeDocument_collectionId_sortName_idx" ON "KnowledgeDocument"("collectionId", "sortName");
