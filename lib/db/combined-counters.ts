// Additive counters on one row (a run's token usage), written as a group commit: the increments of one
// turn of the event loop go in one statement, and while a row's update is in flight, the increments
// that arrive meanwhile wait and then go in the next. Each caller still resolves only once a write that
// includes its increment has committed, so a counter is as durable as with one statement per increment;
// only the statements are fewer. A row that many concurrent LLM calls update (a tree's page analyses: a
// begin and a settle each) is otherwise a queue of single-row updates, each waiting for the row lock of
// the one before on PostgreSQL. On SQLite a write is over before the next increment arrives, so only the
// turn's batching combines them there: a (5, 5) research sent 1,337 usage updates for 865 LLM calls, now 259.

import { Prisma } from "../generated/prisma/client";
import { executeDirect } from "./direct";

type Waiter = { resolve: () => void; reject: (error: unknown) => void };

export class CombinedCounters<Field extends string> {
  private readonly pending = new Map<string, { delta: Record<Field, number>; waiters: Waiter[] }>();
  private readonly writing = new Set<string>();

  /** `write` adds a delta (every field, zeros included) to the row with that key. */
  constructor(
    private readonly fields: readonly Field[],
    private readonly write: (key: string, delta: Record<Field, number>) => Promise<void>,
  ) {}

  /** Adds to the row's counters; resolves when a write that includes this increment has committed. */
  add(key: string, increment: Partial<Record<Field, number>>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let batch = this.pending.get(key);
      if (!batch) {
        batch = { delta: Object.fromEntries(this.fields.map((f) => [f, 0])) as Record<Field, number>, waiters: [] };
        this.pending.set(key, batch);
      }
      for (const field of this.fields) batch.delta[field] += increment[field] ?? 0;
      batch.waiters.push({ resolve, reject });
      // Nothing in flight for the row: written once this turn of the event loop is over, with the
      // increments that arrive in it (a wave of calls begins together; replies arrive together).
      if (!this.writing.has(key)) {
        this.writing.add(key);
        setImmediate(() => void this.flush(key));
      }
    });
  }

  private async flush(key: string): Promise<void> {
    try {
      for (let batch = this.pending.get(key); batch; batch = this.pending.get(key)) {
        this.pending.delete(key);
        try {
          await this.write(key, batch.delta);
          for (const waiter of batch.waiters) waiter.resolve();
        } catch (error) {
          // The batch's statement failed: each of its callers hears it, as if its own had.
          for (const waiter of batch.waiters) waiter.reject(error);
        }
      }
    } finally {
      this.writing.delete(key);
    }
  }
}

/** A run subject's token usage counters (a research's, a conversation's): the calls' begins and settles. */
export function usageCounters(table: "Research" | "Conversation") {
  const name = Prisma.raw(`"${table}"`);
  return new CombinedCounters(["promptTokens", "completionTokens", "llmCalls", "llmCallsUnsettled"] as const, async (id, d) => {
    await executeDirect(Prisma.sql`
      UPDATE ${name} SET "promptTokens" = "promptTokens" + ${d.promptTokens},
        "completionTokens" = "completionTokens" + ${d.completionTokens}, "llmCalls" = "llmCalls" + ${d.llmCalls},
        "llmCallsUnsettled" = "llmCallsUnsettled" + ${d.llmCallsUnsettled}
      WHERE "id" = ${id}`);
  });
}
