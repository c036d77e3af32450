// A limit that holds for every process on one Redis (REDIS_URL): LLM calls, searches and page
// fetches of all web instances and workers together. A caller first takes a slot of this process's
// semaphore (lanes and priorities as in concurrency.ts, so runs here still take turns), then one of
// the fleet's: a member of a sorted set in Redis scored by its lease's expiry. A holder renews its
// leases every LEASE_MS / 3; a process killed while holding slots frees them when they expire, so
// nothing leaks. The limit itself is in Redis too: the adaptive back-off on 429 (provider-health.ts
// sets `limit`) lowers it for everyone. Times are Redis's (TIME), so the machines' clocks do not matter.
//
// A lease released while no process waits stays with this process for IDLE_MS, and its next acquire
// takes it without Redis: two scripts per LLM call, search and fetch were a tenth of a queue worker's
// CPU. A process refused a slot announces it, and every process then frees its idle leases at once and
// keeps none for WAITING_MS: under contention each slot goes back to Redis as before.
//
// What does go to Redis goes in batches (lib/db/group-commit.ts): the acquires asked for together
// (before the next tick) are one script (a level's page analyses start together: one script takes a
// slot for each of them), and the releases of one turn of the event loop (the idle leases whose time is
// up, the answers that came in together) are one. Each script is a socket write on both sides, and
// those writes were most of what the fleet's limits cost a worker.
import { randomUUID } from "node:crypto";
import { Semaphore, type WaitOptions } from "./concurrency";
import { GroupCommit } from "./db/group-commit";
import { onRedisMessages, redis, redisKey, redisScript } from "./redis";

/** How long a slot is held without renewal: a killed process's slots come back after at most this. */
const LEASE_MS = 15_000;
/** How long a lowered limit is remembered without being set again. */
const LIMIT_TTL_MS = 10 * 60_000;
/** A waiter retries at least this often even when no release is announced (a lost message, an expired lease). */
const RETRY_MS = 250;

/** How long a refused acquire marks the resource as waited for (a waiter retries within RETRY_MS × 1.5). */
const WAITING_MS = RETRY_MS * 4;
/** How long a lease released while nobody waits is kept for this process's next acquire. */
const IDLE_MS = 500;

// KEYS: holders (zset), limit, waiting, contended channel. ARGV: lease ms, default limit, waiting ms, ids…
// Takes a slot for as many of the ids, first first, as the limit leaves free; returns { taken, limit }.
// A refusal (of any of them) marks the resource as waited for, so that releases announce themselves
// (below), and tells every process to give back the leases it keeps idle.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local limit = tonumber(redis.call('GET', KEYS[2]) or ARGV[2])
local wanted = #ARGV - 3
local taken = math.max(0, math.min(wanted, limit - redis.call('ZCARD', KEYS[1])))
for i = 1, taken do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3 + i]) end
if taken > 0 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2) end
if taken < wanted then
  redis.call('SET', KEYS[3], '1', 'PX', tonumber(ARGV[3]))
  redis.call('PUBLISH', KEYS[4], '1')
end
return {taken, limit}`;
const acquire = redisScript(ACQUIRE, 4);

// KEYS: holders. ARGV: lease ms, ids… Extends the leases of the ids still held; returns the ids that are not
// (expired while the process could not renew them, or Redis lost them): they are no longer slots.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local missing = {}
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i])
  else table.insert(missing, ARGV[i]) end
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2)
return missing`;
const renewLeases = redisScript(RENEW, 1);

// KEYS: holders, channel, waiting. ARGV: ids… Frees the slots and, when a process was refused one lately,
// tells the waiters of every process. Below the limit nobody waits, and every process subscribed would be
// woken for nothing (a message per LLM call, search and fetch).
const RELEASE = `
redis.call('ZREM', KEYS[1], unpack(ARGV))
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('PUBLISH', KEYS[2], '1') end
return 1`;
const release = redisScript(RELEASE, 3);

export class FleetSemaphore extends Semaphore {
  private readonly holdersKey: string;
  private readonly limitKey: string;
  private readonly waitingKey: string;
  private readonly channel: string;
  private readonly contendedChannel: string;
  /** Leases this process holds: in use, or idle (below). */
  private readonly held = new Set<string>();
  /** Leases released while nobody waited, kept for the next acquire here; each goes back to Redis after IDLE_MS. */
  private readonly idle = new Map<string, ReturnType<typeof setTimeout>>();
  /** Until when a process was refused lately (Date.now()): no lease is kept idle meanwhile. */
  private contendedUntil = 0;
  private readonly waiters = new Set<() => void>();
  /**
   * Whether Redis gave each id a slot: the acquires asked for before the next tick in one script. A
   * tick comes once the microtasks queued now, and those they queue, have run: acquires that started
   * together (each a few awaits into acquire) are all asking by then.
   */
  private readonly slots = new GroupCommit<string, boolean>(async (_, ids) => {
    const [taken, limit] = (await acquire(this.holdersKey, this.limitKey, this.waitingKey, this.contendedChannel, this.leaseMs, this.maxLimit, WAITING_MS, ...ids)) as [number, number];
    this.shared = Number(limit);
    return ids.map((_, i) => i < Number(taken));
  }, process.nextTick);
  /** The leases released in one turn of the event loop, freed in one script. */
  private readonly releases = new GroupCommit<string, void>(async (_, ids) => {
    await release(this.holdersKey, this.channel, this.waitingKey, ...ids).catch((error: unknown) =>
      console.error(`[quarry] could not release ${ids.length} ${this.name} slot(s) (they expire by themselves):`, error),
    );
    return ids.map(() => undefined);
  });
  private renewer: ReturnType<typeof setInterval> | undefined;
  private subscribed = false;
  /** The fleet's limit as last read from Redis. */
  private shared: number;

  /** `name`: the resource ("llm", …); `maxLimit`: the configured limit (this process never holds more). */
  constructor(
    private readonly name: string,
    private readonly maxLimit: number,
    private readonly leaseMs = LEASE_MS,
    private readonly idleMs = IDLE_MS,
  ) {
    super(maxLimit);
    this.shared = maxLimit;
    this.holdersKey = redisKey(`limits:${name}:holders`);
    this.limitKey = redisKey(`limits:${name}:limit`);
    this.waitingKey = redisKey(`limits:${name}:waiting`);
    this.channel = redisKey(`limits:${name}:released`);
    this.contendedChannel = redisKey(`limits:${name}:contended`);
  }

  /** The fleet's limit (as last read). */
  override get limit(): number {
    return this.shared;
  }

  /** Sets the fleet's limit (the adaptive back-off): every process obeys it from its next acquire. */
  override setLimit(limit: number): void {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore limit must be a positive integer, got ${limit}`);
    this.shared = Math.min(limit, this.maxLimit);
    if (this.held.size > this.shared) this.freeIdle();
    void redis()
      // Forgotten after a while without 429s: a restart with a new configured limit is not held to an old one.
      .set(this.limitKey, String(this.shared), "PX", LIMIT_TTL_MS)
      .catch((error: unknown) => console.error(`[quarry] could not set the ${this.name} limit in Redis:`, error));
  }

  override async acquire(signal?: AbortSignal, options?: WaitOptions): Promise<() => void> {
    const releaseLocal = await super.acquire(signal, options);
    let id: string;
    try {
      id = await this.acquireFleet(signal);
    } catch (error) {
      releaseLocal();
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      releaseLocal();
      // A lease Redis no longer has (see renew) is not kept: it is no slot of the fleet's. Nor is one kept
      // for no time (idleMs 0): it goes back with the other releases of this turn, in their script, not
      // from a timer of its own (which a loaded machine may run a turn after the others').
      if (this.idleMs > 0 && this.held.has(id) && Date.now() >= this.contendedUntil && this.held.size <= this.shared) this.keepIdle(id);
      else this.releaseFleet(id);
    };
  }

  private keepIdle(id: string): void {
    const timer = setTimeout(() => {
      this.idle.delete(id);
      this.releaseFleet(id);
    }, this.idleMs);
    timer.unref();
    this.idle.set(id, timer);
  }

  /** Takes the lease out of the idle ones (still held). */
  private unidle(id: string): void {
    clearTimeout(this.idle.get(id));
    this.idle.delete(id);
  }

  /** Gives every idle lease back to Redis (a process waits, or the limit was lowered). */
  private freeIdle(): void {
    for (const id of [...this.idle.keys()]) {
      this.unidle(id);
      this.releaseFleet(id);
    }
  }

  private releaseFleet(id: string): void {
    this.held.delete(id);
    void this.releases.add("", id);
  }

  private async acquireFleet(signal?: AbortSignal): Promise<string> {
    const id = randomUUID();
    this.subscribe();
    for (;;) {
      const kept = this.takeIdle();
      if (kept) return kept;
      signal?.throwIfAborted();
      if (await this.slots.add("", id)) {
        this.held.add(id);
        this.renew();
        return id;
      }
      // Refused: this process's own releases go back to Redis now (its waiters are woken by them).
      this.contendedUntil = Date.now() + WAITING_MS;
      await this.waitForRelease(signal);
    }
  }

  /** An idle lease of this process, taken for a new holder (no Redis), if there is one. */
  private takeIdle(): string | undefined {
    const id = this.idle.keys().next().value;
    if (id !== undefined) this.unidle(id);
    return id;
  }

  /** Until a slot is released anywhere, or RETRY_MS (with jitter), or the abort. */
  private waitForRelease(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, RETRY_MS * (0.5 + Math.random()));
      this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private subscribe(): void {
    if (this.subscribed) return;
    this.subscribed = true;
    onRedisMessages([this.channel, this.contendedChannel], `${this.name} releases`, (channel) => {
      if (channel === this.contendedChannel) {
        this.contendedUntil = Date.now() + WAITING_MS;
        this.freeIdle();
      } else {
        // One at a time would be fairer, but a waiter that loses the race just waits again.
        for (const wake of [...this.waiters]) wake();
      }
    });
  }

  /** Keeps this process's leases alive while it holds any. */
  private renew(): void {
    if (this.renewer) return;
    this.renewer = setInterval(() => {
      if (this.held.size === 0) {
        clearInterval(this.renewer);
        this.renewer = undefined;
        return;
      }
      renewLeases(this.holdersKey, this.leaseMs, ...this.held)
        .then((missing) => {
          for (const id of missing as string[]) {
            this.held.delete(id);
            this.unidle(id);
          }
        })
        .catch((error: unknown) => console.error(`[quarry] could not renew ${this.name} slots:`, error));
    }, this.leaseMs / 3);
    this.renewer.unref();
  }
}
