// In-memory fixed-window counter for sign-in and sign-up attempts (per process; enough for the
// embedded single-process deployment, and it resets on restart, which is acceptable for throttling).
export class AttemptLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Records an attempt; false when the key has used up its window. */
  take(key: string, now = Date.now()): boolean {
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.hits.size > 10_000) this.prune(now);
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.max;
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

const globalForLimiters = globalThis as unknown as { quarryAuthLimiters?: { signIn: AttemptLimiter; signUp: AttemptLimiter } };

export const authLimiters = (globalForLimiters.quarryAuthLimiters ??= {
  // 10 failed sign-ins per email per 15 minutes
  signIn: new AttemptLimiter(10, 15 * 60 * 1000),
  // 20 sign-ups per client address per hour
  signUp: new AttemptLimiter(20, 60 * 60 * 1000),
});
