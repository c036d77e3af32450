// Adaptive concurrency for a limiter in front of a provider that rate-limits (the LLM, SearXNG): a
// 429 lowers the limit (at most once per second, ×0.7, down to 1); each run of `limit` successes
// raises it by one, back up to the configured maximum. So a high ceiling is safe: on a provider that
// allows it every slot is used, and on one that does not all callers slow down together instead of
// each retrying on its own. With REDIS_URL the limit lives in Redis (fleet-semaphore.ts) and the
// back-off is shared by every process.
import type { Semaphore } from "./concurrency";

const DECREASE_EVERY_MS = 1_000;
const DECREASE_FACTOR = 0.7;

export class AdaptiveLimit {
  private successesAtLimit = 0;
  private lastDecrease = 0;

  constructor(
    private readonly limiter: Semaphore,
    private readonly maxLimit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider answered (not a 429). */
  succeeded(): void {
    const { limiter } = this;
    if (limiter.limit < this.maxLimit && ++this.successesAtLimit >= limiter.limit) {
      this.successesAtLimit = 0;
      limiter.setLimit(limiter.limit + 1);
    }
  }

  /** The provider answered 429. */
  rateLimited(): void {
    const now = this.now();
    if (now - this.lastDecrease < DECREASE_EVERY_MS) return;
    this.lastDecrease = now;
    this.successesAtLimit = 0;
    this.limiter.setLimit(Math.max(1, Math.floor(this.limiter.limit * DECREASE_FACTOR)));
  }
}
