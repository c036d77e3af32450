/**
 * A map that keeps its latest entries within a budget, for the per-process memories of hot paths
 * (prepared statements, ended pages, pages read in full): each entry weighs `weigh(value)` (1 by
 * default), and once the total is over the budget the oldest entries go, never the one just added.
 * A kept entry is never replaced: the first value for a key stands.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  delete(key: K): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.total -= kept.weight;
  }

  /** The value kept for `key`; when there is none, `make()`'s, kept from now on. */
  getOrAdd(key: K, make: () => V): V {
    const kept = this.entries.get(key);
    if (kept) return kept.value;
    const value = make();
    const weight = this.weigh(value);
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.budget || oldest === key) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
    return value;
  }
}
