// The knowledge-base search provider, beside the web one: a run's collections searched with the same
// query, each passage returned as a source URL (lib/knowledge/source-url.ts) that engines fetch,
// analyse and cite like a web page.
import type { UsageSink } from "../ai/usage";
import { searchKnowledge } from "../knowledge/search";
import { knowledgeSourceUrl, sourceTitle } from "../knowledge/source-url";
import type { Sources } from "../knowledge/sources";
import { searchWeb } from "./index";
import type { SearchResult } from "./types";

// Passages per query: as many as a web search returns at most, so that neither source crowds out the other.
const KNOWLEDGE_RESULTS = 5;

export async function searchCollections({ userId, collectionIds, query, onUsage }: { userId: string | null; collectionIds: string[]; query: string; onUsage?: UsageSink }): Promise<SearchResult[]> {
  if (collectionIds.length === 0) return [];
  const hits = await searchKnowledge({ userId, collectionIds, query, limit: KNOWLEDGE_RESULTS, onUsage });
  return hits.map((h) => ({
    url: knowledgeSourceUrl({ collectionId: h.collectionId, documentId: h.documentId, chunkId: h.id, page: h.page, section: h.section }),
    title: sourceTitle(h.documentName, h.documentTitle, h),
    snippet: h.text.slice(0, 300),
  }));
}

/**
 * The run's sources searched for one query: the collections first (local, fast), then the web.
 * With both, a failed web search still returns the passages found; with the web only, it throws.
 */
export async function searchSources({ sources, userId, query, signal, categories, onUsage }: {
  sources: Sources;
  userId: string | null;
  query: string;
  signal?: AbortSignal;
  categories?: string[];
  /** The run's usage sink: a query embedded for hybrid ranking is one of the run's LLM calls. */
  onUsage?: UsageSink;
}): Promise<SearchResult[]> {
  const local = await searchCollections({ userId, collectionIds: sources.collections, query, onUsage });
  if (!sources.web) return local;
  try {
    return [...local, ...(await searchWeb(query, signal, categories))];
  } catch (error) {
    if (local.length === 0 || signal?.aborted) throw error;
    return local;
  }
}
