-- AlterTable
ALTER TABLE "AnswerRun" ADD COLUMN     "sources" TEXT;

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "sources" TEXT;

-- AlterTable
ALTER TABLE "Research" ADD COLUMN     "sources" TEXT;

-- CreateTable
CREATE TABLE "Collection" (
    "id" TEXT NOT NULL,
    "userId" TEXT,
    "name" TEXT NOT NULL,
    "sourceRoot" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Collection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeDocument" (
    "id" TEXT NOT NULL,
    "collectionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "title" TEXT,
    "pageCount" INTEGER,
    "chunkCount" INTEGER NOT NULL DEFAULT 0,
    "sourcePath" TEXT,
    "sourceMtime" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KnowledgeDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "id" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "collectionId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "page" INTEGER,
    "section" TEXT,
    "text" TEXT NOT NULL,
    "embedding" BYTEA,
    "embeddingModel" TEXT,

    CONSTRAINT "KnowledgeChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Collection_sourceRoot_key" ON "Collection"("sourceRoot");

-- CreateIndex
CREATE INDEX "Collection_userId_createdAt_idx" ON "Collection"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "KnowledgeDocument_collectionId_createdAt_idx" ON "KnowledgeDocument"("collectionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeDocument_collectionId_sourcePath_key" ON "KnowledgeDocument"("collectionId", "sourcePath");

-- CreateIndex
CREATE INDEX "KnowledgeChunk_documentId_ordinal_idx" ON "KnowledgeChunk"("documentId", "ordinal");

-- CreateIndex
CREATE INDEX "KnowledgeChunk_collectionId_idx" ON "KnowledgeChunk"("collectionId");

-- AddForeignKey
ALTER TABLE "Collection" ADD CONSTRAINT "Collection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeDocument" ADD CONSTRAINT "KnowledgeDocument_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "Collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "KnowledgeDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written (Prisma has no full-text column or index): the chunks' English tsvector, stored (a
-- generated column, so a search never recomputes it per row) and GIN-indexed. lib/db/knowledge-search.ts
-- ranks with ts_rank on it, weighted by each term's idf.
ALTER TABLE "KnowledgeChunk" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (to_tsvector('english', "text")) STORED;
CREATE INDEX "KnowledgeChunk_searchVector_idx" ON "KnowledgeChunk" USING GIN ("searchVector");
