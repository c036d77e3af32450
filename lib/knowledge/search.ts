// Ranked search over the collections a caller may read. Full text always (no external service);
// collections the caller may not read are dropped, never searched.
import { readableCollectionIds } from "../db/knowledge";
import { searchChunks, type ChunkHit } from "../db/knowledge-search";
import { queryTerms } from "./query-terms";

export type KnowledgeHit = ChunkHit;

export async function searchKnowledge({ userId, collectionIds, query, limit = 10 }: {
  /** null: a run without an owner (the local CLI) reads only the shared collections. */
  userId: string | null;
  collectionIds: string[];
  query: string;
  limit?: number;
}): Promise<KnowledgeHit[]> {
  const terms = queryTerms(query);
  const ids = await readableCollectionIds({ ids: collectionIds, userId });
  if (terms.length === 0 || ids.length === 0) return [];
  return searchChunks({ collectionIds: ids, terms, limit });
}
