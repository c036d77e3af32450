// A followed run's events put back in sequence order (lib/runs/live.ts). Numbers are given out by one
// counter but appended to the run's event log by several processes (queue mode: each worker numbers
// its jobs' events in batches and appends them on its own), so a later number can reach the log a few
// ms before an earlier one (70, 71, then 65, 66). A follower holds an event whose number is not the
// next one until the gap fills, for at most `holdMs`; then the missing numbers are given up on (a
// process that died holding them, a block of numbers a run left unused, an allocation never emitted)
// and the held events go on. A given-up number that still comes is passed on once, late rather than
// lost: the clients keep each row's newest state by its number (lib/client/*-state.ts).
//
// Numbers that will never come because their process said so — the unused rest of a run's block when it
// stops numbering here (lib/events/bus.ts close: a run handed off, parked or ended) — are skipped at once
// (`skip`), so the hold covers only what nobody announced: an append slowed by a loaded machine (a
// worker's event loop held for seconds between numbering its events and appending them), or a process
// that died holding numbers.

/**
 * How long an event waits for the numbers before it: queue mode's inversions fill within ms on a quiet
 * machine, and within seconds on one whose workers stall; announced gaps do not wait (see above).
 */
export const HOLD_MS = 8_000;

export class SeqOrder<E extends { seq: number }> {
  /** Every number up to this one was passed on or given up on. */
  private last: number;
  private readonly held = new Map<number, { event: E; since: number }>();
  /** Numbers given up on ([from, to]): one that arrives late is passed on once. */
  private readonly skipped: [number, number][] = [];
  private readonly late = new Set<number>();
  private readonly ready: E[] = [];
  /** Ranges of numbers announced as never coming, not yet reached ([from] → to). */
  private readonly skips = new Map<number, number>();

  /** `after`: the number the follower's snapshot is current to (it and every number before it are dropped). */
  constructor(
    after: number,
    private readonly holdMs = HOLD_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.last = after;
  }

  /** Takes an event in; false when it is not new (a duplicate, or already in the snapshot). */
  add(event: E): boolean {
    const seq = event.seq;
    if (seq === this.last + 1) {
      this.ready.push(event);
      this.last = seq;
      this.drain();
      return true;
    }
    if (seq > this.last) {
      if (this.held.has(seq)) return false;
      this.held.set(seq, { event, since: this.now() });
      return true;
    }
    if (this.late.has(seq) || !this.skipped.some(([from, to]) => seq >= from && seq <= to)) return false;
    this.late.add(seq);
    this.ready.push(event);
    return true;
  }

  /**
   * The numbers from `from` to `to` will never come (their process said so): nothing waits for them.
   * True when that moved the order on or is kept for later.
   */
  skip(from: number, to: number): boolean {
    if (to <= this.last) return false;
    if (from <= this.last + 1) {
      this.last = to;
      for (const seq of this.held.keys()) if (seq <= to) this.held.delete(seq);
      this.drain();
    } else this.skips.set(from, Math.max(to, this.skips.get(from) ?? to));
    return true;
  }

  /**
   * No number up to `upTo` that has not come yet ever will (the run executes in this process, which
   * has emitted everything up to it): what waits up to it goes on now.
   */
  settle(upTo: number): void {
    if (upTo > this.last) this.release(upTo);
  }

  /** Gives up on the gaps before every event held for `holdMs` or longer. */
  expire(): void {
    const now = this.now();
    let upTo = this.last;
    for (const [seq, { since }] of this.held) if (now - since >= this.holdMs && seq > upTo) upTo = seq;
    if (upTo > this.last) this.release(upTo);
  }

  /** The events to pass on now, in order (each once). */
  take(): E[] {
    return this.ready.splice(0);
  }

  /** Whether an event waits for a gap before it to fill. */
  get holding(): boolean {
    return this.held.size > 0;
  }

  /** The last number passed on in order: a reader still misses the numbers after it that are held back. */
  get position(): number {
    return this.last;
  }

  /** When the first hold ends (in `now`'s clock); undefined when nothing is held. */
  deadline(): number | undefined {
    let first: number | undefined;
    for (const { since } of this.held.values()) if (first === undefined || since < first) first = since;
    return first === undefined ? undefined : first + this.holdMs;
  }

  /** Passes on the held events up to `upTo` in order, giving up on the numbers between them. */
  private release(upTo: number): void {
    const seqs = [...this.held.keys()].filter((s) => s <= upTo).sort((a, b) => a - b);
    let previous = this.last;
    for (const seq of seqs) {
      if (seq > previous + 1) this.skipped.push([previous + 1, seq - 1]);
      this.ready.push(this.held.get(seq)!.event);
      this.held.delete(seq);
      previous = seq;
    }
    if (upTo > previous) this.skipped.push([previous + 1, upTo]);
    this.last = upTo;
    for (const [from, to] of this.skips) if (from <= upTo + 1) {
      this.skips.delete(from);
      this.last = Math.max(this.last, to);
    }
    this.drain();
  }

  /** The held events (and announced skips) that follow on from the last one, now that it has come. */
  private drain(): void {
    for (;;) {
      const next = this.held.get(this.last + 1);
      if (next) {
        this.ready.push(next.event);
        this.held.delete(this.last + 1);
        this.last++;
        continue;
      }
      const to = this.skips.get(this.last + 1);
      if (to === undefined) return;
      this.skips.delete(this.last + 1);
      this.last = Math.max(this.last, to);
    }
  }
}
