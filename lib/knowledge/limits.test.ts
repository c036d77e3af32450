// A user's own knowledge-base work counts against their limits: uploads and re-indexes (in flight and
// per hour), each refused over a limit with a 429 and a Retry-After before any parsing; another user
// is not affected. Without EMBEDDING_MODEL a collection search makes no LLM call and is not counted
// (with one: search-limits.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { AppError } from "../errors";

await useTestDatabase();
process.env.MAX_CONCURRENT_UPLOADS_PER_USER = "1";
process.env.RATE_LIMIT_UPLOADS_PER_HOUR = "3";
delete process.env.EMBEDDING_MODEL;
const { db } = await import("../db/client");
const kb = await import("./collections");
const { withUserEmbeddingUsage } = await import("./usage");

const text = (s: string) => new TextEncoder().encode(s);
const limited = (code: string) => (e: unknown) => e instanceof AppError && e.code === code && e.type === "rate_limit" && (e.retryAfterSeconds ?? 0) > 0;

test("uploads: one in flight at a time, three an hour (a re-index counts as one); another user is not affected", async () => {
  const alice = (await db.user.create({ data: { email: "uploader@example.com", passwordHash: "x" } })).id;
  const bob = (await db.user.create({ data: { email: "other-uploader@example.com", passwordHash: "x" } })).id;
  const c = await kb.createCollection(alice, "Uploads");

  // While one upload is being parsed, a second is refused before its bytes are looked at.
  let release!: () => void;
  const held = withUserEmbeddingUsage({ userId: alice, kind: "knowledge-index", subjectId: c.id }, () => new Promise<void>((r) => (release = r)));
  await new Promise((r) => setTimeout(r, 100));
  await assert.rejects(kb.addDocument(alice, c.id, { name: "a.txt", bytes: text("Alpha.") }), limited("rate_limit:concurrent_uploads"));
  release();
  await held;

  await kb.addDocument(alice, c.id, { name: "a.txt", bytes: text("Alpha.") });
  await kb.reindexCollection(alice, c.id);
  // Three in the hour (the held one, the upload, the re-index): the next waits for the oldest to leave it.
  const error = await kb.addDocument(alice, c.id, { name: "b.txt", bytes: text("Beta.") }).then(() => null, (e: AppError) => e);
  assert.ok(limited("rate_limit:uploads")(error), String(error));
  assert.ok(error!.retryAfterSeconds! > 3_500 && error!.retryAfterSeconds! <= 3_600, String(error!.retryAfterSeconds));
  assert.deepEqual((await kb.getCollection(alice, c.id)).documents.map((d) => d.name), ["a.txt"]);

  const theirs = await kb.createCollection(bob, "Theirs");
  await kb.addDocument(bob, theirs.id, { name: "c.txt", bytes: text("Gamma.") });
});

test("without embeddings a collection search is not counted", async () => {
  const carol = (await db.user.create({ data: { email: "searcher@example.com", passwordHash: "x" } })).id;
  await Promise.all(Array.from({ length: 20 }, () => withUserEmbeddingUsage({ userId: carol, kind: "knowledge-search" }, async () => [])));
  assert.equal(await db.planningCall.count({ where: { userId: carol } }), 0);
});
