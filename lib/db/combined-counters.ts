// Additive counters on one row (a run's token usage), written as a group commit (lib/db/group-commit.ts):
// the increments of one turn of the event loop go in one statement, and while a row's update is in
// flight, the increments that arrive meanwhile wait and then go in the next. A row that many concurrent
// LLM calls update (a tree's page analyses: a begin and a settle each) is otherwise a queue of
// single-row updates, each waiting for the row lock of the one before on PostgreSQL. On SQLite a write is over before the next increment arrives, so only the
// turn's batching combines them there: a (5, 5) research sent 1,337 usage updates for 865 LLM calls, now 259.

import { Prisma } from "../generated/prisma/client";
import { executeDirect } from "./direct";
import { GroupCommit } from "./group-commit";

/** Additive counters per row: a group's increments summed into one write (lib/db/group-commit.ts). */
export class CombinedCounters<Field extends string> {
  private readonly groups: GroupCommit<Partial<Record<Field, number>>, undefined>;

  /** `write` adds a delta (every field, zeros included) to the row with that key. */
  constructor(fields: readonly Field[], write: (key: string, delta: Record<Field, number>) => Promise<void>) {
    this.groups = new GroupCommit(async (key, increments) => {
      const delta = Object.fromEntries(fields.map((f) => [f, 0])) as Record<Field, number>;
      for (const increment of increments) for (const field of fields) delta[field] += increment[field] ?? 0;
      await write(key, delta);
      return increments.map(() => undefined);
    });
  }

  /** Adds to the row's counters; resolves when a write that includes this increment has committed. */
  add(key: string, increment: Partial<Record<Field, number>>): Promise<void> {
    return this.groups.add(key, increment);
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
