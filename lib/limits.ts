// Process-wide limiters, created lazily from the environment.
import { Semaphore } from "./concurrency";
import { getEnv } from "./env";

interface Limiters {
  llm: Semaphore;
  search: Semaphore;
  fetch: Semaphore;
}

const globalForLimits = globalThis as unknown as { quarryLimiters?: Limiters };

export function limiters(): Limiters {
  if (!globalForLimits.quarryLimiters) {
    const env = getEnv();
    globalForLimits.quarryLimiters = {
      llm: new Semaphore(env.LLM_CONCURRENCY),
      search: new Semaphore(env.SEARCH_CONCURRENCY),
      fetch: new Semaphore(env.SCRAPE_CONCURRENCY),
    };
  }
  return globalForLimits.quarryLimiters;
}
