// Group commit: the writes that arrive in one turn of the event loop go to the database together, and
// while a group's write is in flight, the ones that arrive meanwhile wait and then go in the next.
// Each caller still resolves only once a write that includes its value has committed (with its own
// result), so nothing is less durable than with one statement per caller; only the statements are
// fewer. Many concurrent LLM calls finish within one turn when the event loop is busy: their usage
// counters and their page analyses are otherwise a queue of small writes (on SQLite each its own
// commit; on PostgreSQL each a round trip, some waiting for the row lock of the one before). The fleet
// limits batch their Redis scripts with it too (lib/fleet-semaphore.ts).

type Waiter<R> = { resolve: (result: R) => void; reject: (error: unknown) => void };

export class GroupCommit<T, R> {
  private readonly pending = new Map<string, { values: T[]; waiters: Waiter<R>[] }>();
  private readonly writing = new Set<string>();

  /**
   * `write` stores a group's values (all for one key) and returns each one's result, in order.
   * `schedule` starts a group's first write: by default once this turn of the event loop is over;
   * `process.nextTick` writes once the microtasks queued now (and those they queue) have run, with
   * no turn of the loop in between, for callers that wait on the result before going on.
   */
  constructor(
    private readonly write: (key: string, values: T[]) => Promise<R[]>,
    private readonly schedule: (start: () => void) => void = setImmediate,
  ) {}

  /** Resolves with the value's result once a write that includes it has committed. */
  add(key: string, value: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let group = this.pending.get(key);
      if (!group) this.pending.set(key, (group = { values: [], waiters: [] }));
      group.values.push(value);
      group.waiters.push({ resolve, reject });
      // Nothing in flight for the key: written once this turn of the event loop is over (or as
      // `schedule` says), with the values that arrive until then (a wave of calls begins together;
      // replies arrive together).
      if (!this.writing.has(key)) {
        this.writing.add(key);
        this.schedule(() => void this.flush(key));
      }
    });
  }

  private async flush(key: string): Promise<void> {
    try {
      for (let group = this.pending.get(key); group; group = this.pending.get(key)) {
        this.pending.delete(key);
        try {
          const results = await this.write(key, group.values);
          group.waiters.forEach((waiter, i) => waiter.resolve(results[i]));
        } catch (error) {
          // The group's write failed: each of its callers hears it, as if its own had.
          for (const waiter of group.waiters) waiter.reject(error);
        }
      }
    } finally {
      this.writing.delete(key);
    }
  }
}
