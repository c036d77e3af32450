// Group commit: the writes that arrive in one turn of the event loop go to the database together, and
// while a group's write is in flight, the ones that arrive meanwhile wait and then go in the next.
// Each caller still resolves only once a write that includes its value has committed (with its own
// result), so nothing is less durable than with one statement per caller; only the statements are
// fewer. Many concurrent LLM calls finish within one turn when the event loop is busy: their usage
// counters and their page analyses are otherwise a queue of small writes (on SQLite each its own
// commit; on PostgreSQL each a round trip, some waiting for the row lock of the one before).

type Waiter<R> = { resolve: (result: R) => void; reject: (error: unknown) => void };

export class GroupCommit<T, R> {
  private readonly pending = new Map<string, { values: T[]; waiters: Waiter<R>[] }>();
  private readonly writing = new Set<string>();

  /** `write` stores a group's values (all for one key) and returns each one's result, in order. */
  constructor(private readonly write: (key: string, values: T[]) => Promise<R[]>) {}

  /** Resolves with the value's result once a write that includes it has committed. */
  add(key: string, value: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let group = this.pending.get(key);
      if (!group) this.pending.set(key, (group = { values: [], waiters: [] }));
      group.values.push(value);
      group.waiters.push({ resolve, reject });
      // Nothing in flight for the key: written once this turn of the event loop is over, with the
      // values that arrive in it (a wave of calls begins together; replies arrive together).
      if (!this.writing.has(key)) {
        this.writing.add(key);
        setImmediate(() => void this.flush(key));
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
