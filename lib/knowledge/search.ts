// Ranked search over the collections a caller may read. Full text always (no external service); with
// EMBEDDING_MODEL set, hybrid: the full-text ranking and a cosine ranking over the stored chunk
// vectors are merged by reciprocal rank fusion, so a passage that says the same thing in other words
// is found too. Collections the caller may not read are dropped, never searched.
import { readableCollectionIds } from "../db/knowledge";
import { searchChunks, type ChunkHit } from "../db/knowledge-search";
import { chunkVectors, chunksWithDocuments, nearestChunkIds } from "../db/knowledge-vectors";
import { errorMessage } from "../errors";
import { cosine } from "../ai/vectors";
import { embeddingsEnabled, embedTexts } from "../ai/embed";
import type { UsageSink } from "../ai/usage";
import { fromBlob, reciprocalRankFusion } from "./embeddings";
import { queryTerms } from "./query-terms";

export type KnowledgeHit = ChunkHit;

// Each ranking contributes this many candidates to the fusion.
const CANDIDATES = 50;

export async function searchKnowledge({ userId, collectionIds, query, limit = 10, onUsage }: {
  /** null: a run without an owner (the local CLI) reads only the shared collections. */
  userId: string | null;
  collectionIds: string[];
  query: string;
  limit?: number;
  /** Where the query's embedding request is recorded (the run's usage, or the user's). */
  onUsage?: UsageSink;
}): Promise<KnowledgeHit[]> {
  const terms = queryTerms(query);
  const ids = await readableCollectionIds({ ids: collectionIds, userId });
  if (terms.length === 0 || ids.length === 0) return [];
  const model = embeddingsEnabled();
  if (!model) return searchChunks({ collectionIds: ids, terms, limit });
  const lexical = await searchChunks({ collectionIds: ids, terms, limit: Math.max(limit, CANDIDATES) });
  let semantic: string[];
  try {
    semantic = await vectorRanking(ids, model, query, onUsage);
  } catch (error) {
    console.warn(`[quarry] knowledge search: embeddings failed (${errorMessage(error)}); full-text ranking only`);
    return lexical.slice(0, limit);
  }
  const fused = [...reciprocalRankFusion([lexical.map((h) => h.id), semantic]).entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
  const known = new Map(lexical.map((h) => [h.id, h]));
  const missing = fused.map(([id]) => id).filter((id) => !known.has(id));
  for (const c of await chunksWithDocuments({ ids: missing })) {
    known.set(c.id, { id: c.id, documentId: c.documentId, collectionId: c.collectionId, documentName: c.document.name, documentTitle: c.document.title, format: c.document.format, page: c.page, section: c.section, text: c.text, score: 0 });
  }
  return fused.flatMap(([id, score]) => (known.has(id) ? [{ ...known.get(id)!, score }] : []));
}

/**
 * Chunk ids by cosine similarity to the query, best first: by pgvector where the server has it, else
 * in process over the stored vectors of the collections (see lib/db/knowledge-vectors.ts).
 */
async function vectorRanking(collectionIds: string[], model: string, query: string, onUsage: UsageSink | undefined): Promise<string[]> {
  const [vector] = (await embedTexts([query], { onUsage })) ?? [];
  if (!vector) return [];
  const ranked = await nearestChunkIds({ collectionIds, model, vector, limit: CANDIDATES });
  if (ranked) return ranked;
  return (await chunkVectors({ collectionIds, model }))
    .map((c) => ({ id: c.id, score: cosine(vector, fromBlob(c.embedding)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, CANDIDATES)
    .map((c) => c.id);
}
