// The LLM provider's health, shared by every call and every run in the process.
//
// - Adaptive concurrency (../adaptive-limit.ts): a 429 lowers the LLM limiter's limit, and so do a
//   529 and an attempt that timed out waiting for a first byte (a local server whose queue is longer
//   than it serves in LLM_TIMEOUT_MS); runs of successes raise it back to the configured
//   maximum. So when the provider rate-limits or is saturated, all runs slow down together instead
//   of each call hammering on its own.
// - Outages: when calls have failed for `outageAfterMs` with no success in between (and at least
//   `minFailures` failures), the provider is *down*. While it is down, one request at a time goes out
//   as a probe (backing off up to `probeMaxDelayMs`); every other call waits without spending its
//   retry budget, and the runs show themselves paused. The first success brings everything back,
//   and so does a 429: a provider that rate-limits is up, and the adaptive limit paces the calls
//   (a 429 to a probe used to keep it down, and a recovering provider answering some 429s kept every
//   run waiting for probes backed off to 30 s). `nudge()` (a user's "resume") makes the sleeping
//   probe go at once.
import { AdaptiveLimit } from "../adaptive-limit";
import { sleep, type Semaphore } from "../concurrency";

export interface HealthOptions {
  /** The configured maximum concurrency (the limiter's limit at start). */
  maxLimit: number;
  /** No success for this long (with at least `minFailures` failures) means the provider is down. */
  outageAfterMs: number;
  minFailures?: number;
  probeBaseDelayMs?: number;
  probeMaxDelayMs?: number;
  now?: () => number;
}

export interface HealthState {
  down: boolean;
  /** Why, while down: the last failure. */
  reason: string | null;
  since: Date | null;
}

export type HealthListener = (state: HealthState) => void;

export class ProviderHealth {
  private readonly now: () => number;
  private readonly minFailures: number;
  private readonly probeBaseDelayMs: number;
  private readonly probeMaxDelayMs: number;
  private streakStart = 0;
  private streakFailures = 0;
  private downSince: number | null = null;
  private reason: string | null = null;
  private probing = false;
  private probeDelayMs: number;
  private wakeProbe: AbortController | null = null;
  private changed = deferred();
  private readonly listeners = new Set<HealthListener>();
  private readonly adaptive: AdaptiveLimit | undefined;

  constructor(
    limiter: Semaphore | undefined,
    private readonly options: HealthOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.minFailures = options.minFailures ?? 3;
    this.probeBaseDelayMs = options.probeBaseDelayMs ?? 1_000;
    this.probeMaxDelayMs = options.probeMaxDelayMs ?? 30_000;
    this.probeDelayMs = this.probeBaseDelayMs;
    this.adaptive = limiter ? new AdaptiveLimit(limiter, options.maxLimit, this.now) : undefined;
  }

  get state(): HealthState {
    return { down: this.downSince !== null, reason: this.reason, since: this.downSince === null ? null : new Date(this.downSince) };
  }

  /** Called on every change between up and down; returns the unsubscribe function. */
  subscribe(listener: HealthListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Before each attempt. While the provider is down, one caller at a time is let through as the
   * probe and the others wait here. Resolves with whether this attempt is the probe.
   */
  async admit(signal?: AbortSignal): Promise<boolean> {
    while (this.downSince !== null) {
      signal?.throwIfAborted();
      if (!this.probing) {
        this.probing = true;
        return true;
      }
      await waitOrAbort(this.changed.promise, signal);
    }
    return false;
  }

  /** A successful exchange (any non-retryable reply counts: the provider answered). */
  succeeded(): void {
    this.answered();
    this.adaptive?.succeeded();
  }

  /**
   * A failed exchange (429, 5xx, network error, timeout). A 429 lowers the limit but is no sign of
   * an outage: the provider answered, so it ends one (see `answered`).
   */
  failed(reason: string, { rateLimited = false, overloaded = false } = {}): void {
    const now = this.now();
    if (rateLimited) {
      this.adaptive?.rateLimited();
      this.answered();
      return;
    }
    // A server that says it is overloaded (529) or let an attempt wait past LLM_TIMEOUT_MS without a
    // byte (a local server's queue: Ollama's, llama.cpp's slots) is sent fewer calls at once, as after a
    // 429; unlike a 429 it may also be down, so the failure counts toward an outage too.
    if (overloaded) this.adaptive?.rateLimited();
    if (this.streakFailures === 0) this.streakStart = now;
    this.streakFailures++;
    this.reason = reason;
    if (this.downSince === null && this.streakFailures >= this.minFailures && now - this.streakStart >= this.options.outageAfterMs) {
      this.downSince = now;
      this.notify();
    }
  }

  /**
   * After a failed probe: waits the probe delay (or `retryAfterMs`, if longer), doubling it up to
   * the maximum, then lets the next probe go. `nudge()` cuts the wait short.
   */
  async probeFailed(signal?: AbortSignal, retryAfterMs = 0): Promise<void> {
    const delay = Math.max(this.probeDelayMs, retryAfterMs);
    this.probeDelayMs = Math.min(this.probeMaxDelayMs, this.probeDelayMs * 2);
    this.wakeProbe = new AbortController();
    try {
      await sleep(delay, signal ? AbortSignal.any([signal, this.wakeProbe.signal]) : this.wakeProbe.signal);
    } catch (error) {
      if (signal?.aborted) throw error;
    } finally {
      this.wakeProbe = null;
      this.releaseProbe();
    }
  }

  /** The probe's caller gave up (cancelled): let another waiter probe. */
  releaseProbe(): void {
    if (!this.probing) return;
    this.probing = false;
    this.wake();
  }

  /** The provider answered (a success or a 429): no outage streak, and an outage is over. */
  private answered(): void {
    this.streakFailures = 0;
    this.streakStart = 0;
    if (this.downSince !== null) {
      this.downSince = null;
      this.reason = null;
      this.probing = false;
      this.probeDelayMs = this.probeBaseDelayMs;
      this.notify();
    }
  }

  /** Probe again now (a user asked to resume). Returns whether the provider was down. */
  nudge(): boolean {
    if (this.downSince === null) return false;
    this.probeDelayMs = this.probeBaseDelayMs;
    this.wakeProbe?.abort();
    return true;
  }

  private wake(): void {
    const previous = this.changed;
    this.changed = deferred();
    previous.resolve();
  }

  private notify(): void {
    this.wake();
    const state = this.state;
    for (const listener of this.listeners) {
      try {
        listener(state);
      } catch (error) {
        console.error("[quarry] provider health listener failed:", error);
      }
    }
  }
}

/** Promise.withResolvers, which Node 20 lacks. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function waitOrAbort(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
