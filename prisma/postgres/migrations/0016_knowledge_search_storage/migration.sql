-- The knowledge base's full-text search reads the matching chunks' tsvectors (lib/db/knowledge-search.ts).
-- A chunk's tsvector (~2 KB for 1,000 characters of text) was moved out of line to TOAST, so every
-- @@ and ts_rank on it fetched it from there again: a search of common words read ~150,000 buffers.
-- Chunks now stay whole in their row (up to 8 KB: a chunk is far smaller), with the tsvector kept in
-- line first. And the GIN index takes each insert at once: with fastupdate its pending list grows
-- until a vacuum merges it, and until then every search scans the list (or the planner, seeing it,
-- scans the table instead) — on a server without autovacuum, for ever.
ALTER TABLE "KnowledgeChunk" SET (toast_tuple_target = 8160);
ALTER TABLE "KnowledgeChunk" ALTER COLUMN "searchVector" SET STORAGE MAIN;
ALTER INDEX "KnowledgeChunk_searchVector_idx" SET (fastupdate = off);
SELECT gin_clean_pending_list('"KnowledgeChunk_searchVector_idx"'::regclass);
-- Rows stored before keep their layout until rewritten: rewrite them once.
UPDATE "KnowledgeChunk" SET "text" = "text";
