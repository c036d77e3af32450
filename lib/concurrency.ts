// A counting semaphore: one per scarce resource (LLM calls, searches, page fetches), shared by every
// run in the process so that the configured limits mean what they say. When a slot frees up, the
// lanes (one per research run) take turns, so that one large run cannot starve another; within a
// lane the waiter with the highest priority goes first (the runner gives the calls that unlock the
// most remaining work the highest), and equal priorities go in arrival order.

export interface WaitOptions {
  /** Waiters of one lane are served by priority; lanes are served round-robin. Default "". */
  lane?: string;
  /** Higher first within the lane. Default 0. */
  priority?: number;
}

interface Waiter {
  priority: number;
  grant: () => void;
}

export class Semaphore {
  private active = 0;
  private queued = 0;
  /** Each lane's waiters, best first. A lane is here only while it has waiters. */
  private readonly lanes = new Map<string, Waiter[]>();
  /** Lanes with waiters, in the order they are served. */
  private readonly turns: string[] = [];

  private current: number;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore limit must be a positive integer, got ${limit}`);
    this.current = limit;
  }

  /** The number of holders allowed at once. */
  get limit(): number {
    return this.current;
  }

  /**
   * Changes the limit (adaptive concurrency). A higher limit admits waiters at once; a lower one takes
   * effect as holders release: nobody is interrupted.
   */
  setLimit(limit: number): void {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore limit must be a positive integer, got ${limit}`);
    this.current = limit;
    while (this.active < this.current) {
      const next = this.next();
      if (!next) break;
      this.active++;
      next.grant();
    }
  }

  get inUse(): number {
    return this.active;
  }

  get waiting(): number {
    return this.queued;
  }

  async acquire(signal?: AbortSignal, { lane = "", priority = 0 }: WaitOptions = {}): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active < this.current) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.remove(lane, waiter);
        reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
      };
      this.enqueue(lane, waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    return this.releaser();
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal, options?: WaitOptions): Promise<T> {
    const release = await this.acquire(signal, options);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private enqueue(lane: string, waiter: Waiter): void {
    let list = this.lanes.get(lane);
    if (!list) {
      this.lanes.set(lane, (list = []));
      this.turns.push(lane);
    }
    // After every waiter of equal or higher priority: equal priorities keep their arrival order.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].priority >= waiter.priority) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, waiter);
    this.queued++;
  }

  private remove(lane: string, waiter: Waiter): void {
    const list = this.lanes.get(lane);
    const index = list?.indexOf(waiter) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    this.queued--;
    if (list.length === 0) this.dropLane(lane);
  }

  private dropLane(lane: string): void {
    this.lanes.delete(lane);
    const turn = this.turns.indexOf(lane);
    if (turn >= 0) this.turns.splice(turn, 1);
  }

  /** The next waiter: the head of the lane whose turn it is; that lane then goes to the back. */
  private next(): Waiter | undefined {
    const lane = this.turns.shift();
    if (lane === undefined) return undefined;
    const list = this.lanes.get(lane)!;
    const waiter = list.shift()!;
    this.queued--;
    if (list.length > 0) this.turns.push(lane);
    else this.lanes.delete(lane);
    return waiter;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Hand the slot straight to the next waiter (the active count is unchanged), unless the limit
      // was lowered below the holders.
      const next = this.active <= this.current ? this.next() : undefined;
      if (next) next.grant();
      else this.active--;
    };
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Exponential backoff with full jitter, capped. attempt starts at 0. */
export function backoffDelay(attempt: number, baseMs = 500, capMs = 20_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms` where it is sent (OpenAI's and Azure
 * OpenAI's, to the millisecond), else Retry-After; undefined for neither.
 */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? NaN);
  return Number.isFinite(ms) && ms >= 0 ? ms : parseRetryAfter(headers.get("retry-after"), now);
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds, or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

/**
 * Like Promise.all, but settles only when every task has: the first failure is thrown after the
 * others finished, so no sibling is still writing when the caller moves on (e.g. to mark the run
 * failed and its unfinished rows stopped).
 */
export async function allOrFirstError<T>(tasks: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
