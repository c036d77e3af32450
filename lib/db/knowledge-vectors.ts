// The stored chunk vectors of some collections, made by one embedding model, for an in-process cosine
// ranking (the embedded default has no vector index: sqlite-vec is a native extension that the
// better-sqlite3 build here does not load, and pgvector is often missing; blobs work on both).
import { db } from "./client";

export async function chunkVectors({ collectionIds, model }: { collectionIds: string[]; model: string }): Promise<Array<{ id: string; embedding: Uint8Array }>> {
  const rows = await db.knowledgeChunk.findMany({
    where: { collectionId: { in: collectionIds }, embeddingModel: model, embedding: { not: null } },
    select: { id: true, embedding: true },
  });
  return rows as Array<{ id: string; embedding: Uint8Array }>;
}

/** Chunks by id with their documents, for hits found by vector only. */
export async function chunksWithDocuments({ ids }: { ids: string[] }) {
  return db.knowledgeChunk.findMany({
    where: { id: { in: ids } },
    select: { id: true, documentId: true, collectionId: true, page: true, section: true, text: true, document: { select: { name: true, title: true, format: true } } },
  });
}
