-- AlterTable
ALTER TABLE "AnswerRun" ADD COLUMN "sources" TEXT;

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN "sources" TEXT;

-- AlterTable
ALTER TABLE "Research" ADD COLUMN "sources" TEXT;

-- CreateTable
CREATE TABLE "Collection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "name" TEXT NOT NULL,
    "sourceRoot" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Collection_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "KnowledgeDocument" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "collectionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "content" BLOB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "title" TEXT,
    "pageCount" INTEGER,
    "chunkCount" INTEGER NOT NULL DEFAULT 0,
    "sourcePath" TEXT,
    "sourceMtime" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "KnowledgeDocument_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "Collection" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "documentId" TEXT NOT NULL,
    "collectionId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "page" INTEGER,
    "section" TEXT,
    "text" TEXT NOT NULL,
    "embedding" BLOB,
    "embeddingModel" TEXT,
    CONSTRAINT "KnowledgeChunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "KnowledgeDocument" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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


-- Hand-written (Prisma has no full-text index on SQLite): an FTS5 index of the chunks' text, ranked
-- with bm25(). External content, so the text is stored once (in KnowledgeChunk); the triggers keep the
-- index in step with every insert, update and delete, cascades from a document or collection included.
CREATE VIRTUAL TABLE "KnowledgeChunkFts" USING fts5(
    "text", content='KnowledgeChunk', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER "KnowledgeChunk_fts_insert" AFTER INSERT ON "KnowledgeChunk" BEGIN
    INSERT INTO "KnowledgeChunkFts" (rowid, "text") VALUES (new.rowid, new."text");
END;
CREATE TRIGGER "KnowledgeChunk_fts_delete" AFTER DELETE ON "KnowledgeChunk" BEGIN
    INSERT INTO "KnowledgeChunkFts" ("KnowledgeChunkFts", rowid, "text") VALUES ('delete', old.rowid, old."text");
END;
CREATE TRIGGER "KnowledgeChunk_fts_update" AFTER UPDATE OF "text" ON "KnowledgeChunk" BEGIN
    INSERT INTO "KnowledgeChunkFts" ("KnowledgeChunkFts", rowid, "text") VALUES ('delete', old.rowid, old."text");
    INSERT INTO "KnowledgeChunkFts" (rowid, "text") VALUES (new.rowid, new."text");
END;
