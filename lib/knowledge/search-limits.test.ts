// With EMBEDDING_MODEL every collection search embeds its query (an LLM call): it counts against the
// user's limits, in flight and per hour, and over one is a 429 with Retry-After before any embedding.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { AppError } from "../errors";

await useTestDatabase();
process.env.EMBEDDING_MODEL = "test-embedding";
process.env.MAX_CONCURRENT_KNOWLEDGE_SEARCHES_PER_USER = "4";
process.env.RATE_LIMIT_KNOWLEDGE_SEARCHES_PER_HOUR = "6";
const { db } = await import("../db/client");
const { withUserEmbeddingUsage } = await import("./usage");

test("40 parallel searches: 4 go on, the rest get a 429; then the hourly limit; another user is not affected", async () => {
  const alice = (await db.user.create({ data: { email: "many-searches@example.com", passwordHash: "x" } })).id;
  const bob = (await db.user.create({ data: { email: "one-search@example.com", passwordHash: "x" } })).id;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let ran = 0;
  const search = (userId: string) =>
    withUserEmbeddingUsage({ userId, kind: "knowledge-search", subjectId: "c1" }, async (onUsage) => {
      ran++;
      await onUsage!({ promptTokens: 5, completionTokens: 0, calls: 1 });
      await held;
    });
  let refusedSoFar = 0;
  const outcomes = Array.from({ length: 40 }, () => search(alice).then(() => "ok", (e: unknown) => (refusedSoFar++, e)));
  // The 4 that go on hold their slots until the other 36 have had their answer.
  for (const deadline = Date.now() + 30_000; refusedSoFar < 36 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
  release();
  const settled = await Promise.all(outcomes);
  const refused = settled.filter((o): o is AppError => o instanceof AppError);
  assert.equal(settled.filter((o) => o === "ok").length, 4);
  assert.equal(ran, 4, "a refused search embeds nothing");
  assert.ok(refused.every((e) => e.code === "rate_limit:concurrent_knowledge_searches" && (e.retryAfterSeconds ?? 0) > 0), JSON.stringify(refused.map((e) => e.code)));
  const rows = await db.planningCall.findMany({ where: { userId: alice } });
  assert.deepEqual(rows.map((r) => [r.kind, r.llmCalls, r.endedAt !== null]), Array.from({ length: 4 }, () => ["knowledge-search", 1, true]));

  // Two more fit the hour (6); the seventh is refused until the oldest is an hour old.
  await search(alice);
  await search(alice);
  await assert.rejects(search(alice), (e: AppError) => e.code === "rate_limit:knowledge_searches" && e.retryAfterSeconds! > 3_500);
  await search(bob);
});
