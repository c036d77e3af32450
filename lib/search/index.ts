import { assertResearchConfigured, getEnv } from "../env";
import { limiters } from "../limits";
import { SearxngProvider } from "./searxng";
import type { SearchProvider, SearchResult } from "./types";

export type { SearchProvider, SearchResult } from "./types";
export { SearchError } from "./types";

export function searchProvider(): SearchProvider {
  assertResearchConfigured({ search: true });
  const env = getEnv();
  return new SearxngProvider(env.SEARXNG_URL!, { timeoutMs: env.SEARCH_TIMEOUT_MS, maxRetries: env.SEARCH_MAX_RETRIES, adaptive: limiters().searchAdaptive });
}

/** One search under the process-wide search limit, at most SEARCH_MAX_RESULTS (≤ 7) URLs. */
export async function searchWeb(query: string, signal?: AbortSignal, categories?: string[]): Promise<SearchResult[]> {
  const provider = searchProvider();
  const limit = getEnv().SEARCH_MAX_RESULTS;
  return limiters().search.run(() => provider.search(query, { limit, signal, categories }), signal);
}
