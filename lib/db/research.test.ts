// Listing researches against a real migrated database (SQLite, or PostgreSQL with TEST_DATABASE=postgres).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "./test-support";

await useTestDatabase();
const { db } = await import("./client");
const { listResearches } = await import("./research");

test("search ignores case on either database, and only lists the owner's researches", async () => {
  const owner = await db.user.create({ data: { email: "owner@test.local", passwordHash: "x" } });
  const other = await db.user.create({ data: { email: "other@test.local", passwordHash: "x" } });
  await db.research.create({ data: { userId: owner.id, initialPrompt: "How do Grid Batteries earn money?" } });
  await db.research.create({ data: { userId: owner.id, initialPrompt: "Heat pumps in cold climates" } });
  await db.research.create({ data: { userId: other.id, initialPrompt: "grid batteries, someone else's" } });
  const prompts = async (search: string) =>
    (await listResearches({ userId: owner.id, search, limit: 10 })).rows.map((r) => r.initialPrompt);
  assert.deepEqual(await prompts("grid batteries"), ["How do Grid Batteries earn money?"]);
  assert.deepEqual(await prompts("HEAT PUMPS"), ["Heat pumps in cold climates"]);
  assert.deepEqual(await prompts("Batteries earn"), ["How do Grid Batteries earn money?"]);
  assert.deepEqual(await prompts("100%"), []);
});
