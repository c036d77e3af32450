// Hybrid ranking with EMBEDDING_MODEL set, against a fake embeddings endpoint whose vectors this test
// decides: a passage that full-text search ranks second (a distractor repeats the query's words) comes
// first once the vectors say it is the closest; without vectors the distractor stays first.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { startFakeEmbeddings } from "../../test/fakes/embeddings-server";
import { useTestDatabase } from "../db/test-support";

// The query and the planted passage point one way, the distractor the opposite way, the rest across.
const QUERY = "forests on land";
const fake = await startFakeEmbeddings((text) => (text === QUERY || /kelp|sea forests/i.test(text) ? [1, 0, 0] : /repeated/i.test(text) ? [-1, 0, 0] : [0, 1, 0]));
after(() => fake.stop());
process.env.OPENAI_BASE_URL = fake.url;
process.env.OPENAI_API_KEY = "test-key";
process.env.EMBEDDING_MODEL = "fake-embedding";
await useTestDatabase();
const { db } = await import("../db/client");
const kb = await import("./collections");
const { searchKnowledge } = await import("./search");
const { searchChunks } = await import("../db/knowledge-search");
const { queryTerms } = await import("./query-terms");

const user = (await db.user.create({ data: { email: "hybrid@example.com", passwordHash: "x" } })).id;
const text = (s: string) => new TextEncoder().encode(s);

test("the vectors the endpoint gives put the planted passage first; full text alone does not", async () => {
  const c = await kb.createCollection(user, "Ocean");
  await kb.addDocument(user, c.id, { name: "planted.md", bytes: text("# Coasts\n\nUnderwater sea forests of kelp shelter young fish along cold coasts.") });
  await kb.addDocument(user, c.id, { name: "distractor.md", bytes: text("# Distractor\n\nForests, forests, forests: the word forests repeated, about land forests only.") });
  await kb.addDocument(user, c.id, { name: "other.md", bytes: text("# Other\n\nDesert plants store water in their stems.") });
  assert.equal(await db.knowledgeChunk.count({ where: { collectionId: c.id, embeddingModel: "fake-embedding" } }), 3, "every chunk was embedded");

  const lexical = await searchChunks({ collectionIds: [c.id], terms: queryTerms(QUERY), limit: 10 });
  assert.deepEqual(lexical.map((h) => h.documentName), ["distractor.md", "planted.md"], "full text alone ranks the distractor first");

  const hybrid = await searchKnowledge({ userId: user, collectionIds: [c.id], query: QUERY });
  assert.equal(hybrid[0].documentName, "planted.md");
  assert.match(hybrid[0].text, /kelp shelter young fish/);
  assert.ok(fake.embedded.includes(QUERY), "the query was embedded");
});

test("a passage with no word in common is still found by its vector", async () => {
  const c = await kb.createCollection(user, "Synonyms");
  await kb.addDocument(user, c.id, { name: "kelp.txt", bytes: text("Kelp grows fast in cold water.") });
  await kb.addDocument(user, c.id, { name: "sand.txt", bytes: text("Sand dunes move with the wind and the seasons.") });
  const query = "sea forests seasons";
  const lexical = await searchChunks({ collectionIds: [c.id], terms: queryTerms(query), limit: 10 });
  assert.deepEqual(lexical.map((h) => h.documentName), ["sand.txt"], "no word of the query is in kelp.txt");
  const hits = await searchKnowledge({ userId: user, collectionIds: [c.id], query });
  const kelp = hits.find((h) => h.documentName === "kelp.txt");
  assert.ok(kelp, "found by its vector");
  assert.deepEqual([kelp.page, kelp.section, kelp.text], [null, null, "Kelp grows fast in cold water."]);
});
