// Process-wide limiters, created lazily from the environment.
import { ProviderHealth } from "./ai/provider-health";
import { Semaphore } from "./concurrency";
import { getEnv } from "./env";

interface Limiters {
  llm: Semaphore;
  /** The LLM provider's health: adapts `llm`'s limit, and pauses calls during outages. */
  llmHealth: ProviderHealth;
  search: Semaphore;
  fetch: Semaphore;
}

const globalForLimits = globalThis as unknown as { quarryLimiters?: Limiters };

export function limiters(): Limiters {
  if (!globalForLimits.quarryLimiters) {
    const env = getEnv();
    const llm = new Semaphore(env.LLM_CONCURRENCY);
    globalForLimits.quarryLimiters = {
      llm,
      llmHealth: new ProviderHealth(llm, { maxLimit: env.LLM_CONCURRENCY, outageAfterMs: env.LLM_OUTAGE_AFTER_MS }),
      search: new Semaphore(env.SEARCH_CONCURRENCY),
      fetch: new Semaphore(env.SCRAPE_CONCURRENCY),
    };
  }
  return globalForLimits.quarryLimiters;
}
