// Where chunk vectors are ranked (lib/db/knowledge-vectors.ts). PostgreSQL (TEST_DATABASE=postgres)
// with pgvector on the server: the side table is made at first use, filled with the chunks, emptied
// with them, back-filled from the blobs, and the ranking comes from it; with KNOWLEDGE_PGVECTOR=off
// (the path of a server without the extension) one log line says so and the blobs are ranked in
// process. SQLite always ranks in process.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { startFakeEmbeddings } from "../../test/fakes/embeddings-server";
import { testingOnPostgres, useTestDatabase } from "../db/test-support";

const QUERY = "seaweed meadows";
const fake = await startFakeEmbeddings((text) => (text === QUERY || /kelp/i.test(text) ? [1, 0, 0] : /dunes/i.test(text) ? [0.6, 0.8, 0] : [0, 1, 0]));
after(() => fake.stop());
process.env.OPENAI_BASE_URL = fake.url;
process.env.OPENAI_API_KEY = "test-key";
process.env.EMBEDDING_MODEL = "fake-embedding";
delete process.env.KNOWLEDGE_PGVECTOR;
await useTestDatabase();
const { db } = await import("../db/client");
const { resetEnvCache } = await import("../env");
const kb = await import("./collections");
const { searchKnowledge } = await import("./search");
const { vectorStore, nearestChunkIds } = await import("../db/knowledge-vectors");

// A server without the extension (scripts/install-pgvector.sh could not install it) skips the pgvector
// tests, saying so; the fallback test runs everywhere.
const pgvector = testingOnPostgres() && (await db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).length > 0;
const noPgvector = !testingOnPostgres() ? true : pgvector ? false : "the PostgreSQL server has no pgvector (scripts/install-pgvector.sh)";

const user = (await db.user.create({ data: { email: "vectors@example.com", passwordHash: "x" } })).id;
const text = (s: string) => new TextEncoder().encode(s);
const memo = globalThis as unknown as { quarryVectorStore?: Map<string, Promise<unknown>> };

async function sideRows(collectionId: string): Promise<number> {
  const rows = await db.$queryRawUnsafe<Array<{ n: bigint | number }>>(`SELECT count(*) AS n FROM "KnowledgeChunkVector" WHERE "collectionId" = $1`, collectionId);
  return Number(rows[0].n);
}

async function coastCollection(name: string) {
  const c = await kb.createCollection(user, name);
  const docs = [];
  for (const [file, body] of [
    ["kelp.txt", "Kelp grows fast in cold water along rocky coasts."],
    ["dunes.txt", "Underwater dunes of sand move with the tides."],
    ["desert.txt", "Desert plants store water in their stems."],
  ]) docs.push(await kb.addDocument(user, c.id, { name: file, bytes: text(body) }));
  return { c, docs };
}

test("SQLite ranks the stored vectors in process", { skip: testingOnPostgres() }, async () => {
  assert.equal(await vectorStore(), "in-process");
  const { c } = await coastCollection("SQLite");
  assert.equal(await nearestChunkIds({ collectionIds: [c.id], model: "fake-embedding", vector: new Float32Array([1, 0, 0]), limit: 5 }), null);
  const hits = await searchKnowledge({ userId: user, collectionIds: [c.id], query: QUERY });
  assert.deepEqual(hits.map((h) => h.documentName).slice(0, 2), ["kelp.txt", "dunes.txt"]);
});

test("PostgreSQL with pgvector: the side table follows the chunks and ranks them", { skip: noPgvector }, async () => {
  assert.equal(await vectorStore(), "pgvector", "this server has the vector extension (CI installs it: scripts/install-pgvector.sh)");
  const { c, docs } = await coastCollection("Pgvector");
  assert.equal(await sideRows(c.id), 3, "one row per embedded chunk, written with the chunks");

  // The ranking comes from the side table: with the blobs gone, pgvector still finds kelp by meaning.
  await db.knowledgeChunk.updateMany({ where: { collectionId: c.id }, data: { embedding: null } });
  const ids = await nearestChunkIds({ collectionIds: [c.id], model: "fake-embedding", vector: new Float32Array([1, 0, 0]), limit: 2 });
  const names = (await db.knowledgeChunk.findMany({ where: { id: { in: ids ?? [] } }, select: { id: true, document: { select: { name: true } } } }));
  assert.deepEqual(ids?.map((id) => names.find((n) => n.id === id)?.document.name), ["kelp.txt", "dunes.txt"]);
  const hits = await searchKnowledge({ userId: user, collectionIds: [c.id], query: QUERY });
  assert.equal(hits[0]?.documentName, "kelp.txt", "no word in common: found by its vector alone");
  assert.equal(await nearestChunkIds({ collectionIds: [c.id], model: "another-model", vector: new Float32Array([1, 0, 0]), limit: 2 }).then((r) => r?.length), 0, "another model's query matches none");

  // Deleting a document removes its row; re-indexing the collection writes them again.
  await kb.deleteDocument(user, c.id, docs[2].id);
  assert.equal(await sideRows(c.id), 2);
  await kb.reindexCollection(user, c.id);
  assert.equal(await sideRows(c.id), 2, "re-indexed chunks have their rows (and the old ones went with their chunks)");
  await kb.deleteCollection(user, c.id);
  assert.equal(await sideRows(c.id), 0);
});

test("PostgreSQL: the side table is back-filled from the blobs when it is first made", { skip: noPgvector }, async () => {
  const { c } = await coastCollection("Backfill");
  await db.$executeRawUnsafe(`DROP TABLE "KnowledgeChunkVector"`);
  memo.quarryVectorStore?.clear();
  assert.equal(await vectorStore(), "pgvector");
  assert.equal(await sideRows(c.id), 3);
});

test("PostgreSQL without pgvector (KNOWLEDGE_PGVECTOR=off): one log line, and the blobs are ranked in process", { skip: !testingOnPostgres() }, async () => {
  process.env.KNOWLEDGE_PGVECTOR = "off";
  resetEnvCache();
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
  let fallbackCollection = "";
  try {
    const { c } = await coastCollection("Fallback");
    fallbackCollection = c.id;
    // (The side table exists only where the server has pgvector.)
    if (pgvector) await db.$executeRawUnsafe(`DELETE FROM "KnowledgeChunkVector" WHERE "collectionId" = $1`, c.id);
    assert.equal(await vectorStore(), "in-process");
    for (let i = 0; i < 2; i++) {
      const hits = await searchKnowledge({ userId: user, collectionIds: [c.id], query: QUERY });
      assert.deepEqual(hits.map((h) => h.documentName).slice(0, 2), ["kelp.txt", "dunes.txt"]);
    }
    if (pgvector) assert.equal(await sideRows(c.id), 0, "nothing written to the side table");
    assert.equal(warnings.filter((w) => /ranked in process/.test(w)).length, 1, warnings.join("\n"));
    assert.match(warnings[0], /KNOWLEDGE_PGVECTOR=off/);
  } finally {
    console.warn = warn;
    delete process.env.KNOWLEDGE_PGVECTOR;
    resetEnvCache();
  }
  if (pgvector) {
    // Switched back on, a process back-fills what was written meanwhile.
    memo.quarryVectorStore?.clear();
    assert.equal(await vectorStore(), "pgvector");
    assert.equal(await sideRows(fallbackCollection), 3);
  }
});
