// Process-wide limiters, created lazily from the environment. With REDIS_URL each limit holds for
// every process on that Redis together (fleet-semaphore.ts), and the LLM's and search's adaptive
// back-off is shared; without it, for this process (the embedded default).
import { AdaptiveLimit } from "./adaptive-limit";
import { ProviderHealth } from "./ai/provider-health";
import { Semaphore } from "./concurrency";
import { getEnv } from "./env";
import { FleetSemaphore } from "./fleet-semaphore";

interface Limiters {
  llm: Semaphore;
  /** The LLM provider's health: adapts `llm`'s limit, and pauses calls during outages. */
  llmHealth: ProviderHealth;
  search: Semaphore;
  /** SearXNG's 429s lower `search`'s limit, its answers raise it back to SEARCH_CONCURRENCY. */
  searchAdaptive: AdaptiveLimit;
  fetch: Semaphore;
}

const globalForLimits = globalThis as unknown as { quarryLimiters?: Limiters };

export function limiters(): Limiters {
  if (!globalForLimits.quarryLimiters) {
    const env = getEnv();
    const limit = (name: string, max: number) => (env.REDIS_URL ? new FleetSemaphore(name, max) : new Semaphore(max));
    const llm = limit("llm", env.LLM_CONCURRENCY);
    const search = limit("search", env.SEARCH_CONCURRENCY);
    globalForLimits.quarryLimiters = {
      llm,
      llmHealth: new ProviderHealth(llm, { maxLimit: env.LLM_CONCURRENCY, outageAfterMs: env.LLM_OUTAGE_AFTER_MS }),
      search,
      searchAdaptive: new AdaptiveLimit(search, env.SEARCH_CONCURRENCY),
      fetch: limit("fetch", env.SCRAPE_CONCURRENCY),
    };
  }
  return globalForLimits.quarryLimiters;
}

/**
 * A page's download in a slot of the fetch limit (SCRAPE_CONCURRENCY), for scrapeUrl's `downloadSlot`:
 * the page's extraction then runs outside the slot, so the next download never waits for it.
 */
export const fetchSlot =
  (signal?: AbortSignal) =>
  <T>(download: () => Promise<T>): Promise<T> =>
    limiters().fetch.run(download, signal);
