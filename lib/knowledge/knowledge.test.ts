// The knowledge base against a real (migrated, temporary) database: SQLite's FTS5, or PostgreSQL's
// tsvector index with TEST_DATABASE=postgres. Upload → ranked search finds the planted sentence with
// its page or section; owners only; a failed file changes nothing; deletes leave the index.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildPdfPages } from "../../test/fakes";
import { testingOnPostgres, useTestDatabase } from "../db/test-support";
import { AppError } from "../errors";

await useTestDatabase();
const { db } = await import("../db/client");
const kb = await import("./collections");
const { searchKnowledge } = await import("./search");
const { sharedCollection } = await import("../db/knowledge");

const alice = (await db.user.create({ data: { email: "alice@example.com", passwordHash: "x" } })).id;
const bob = (await db.user.create({ data: { email: "bob@example.com", passwordHash: "x" } })).id;
const text = (s: string) => new TextEncoder().encode(s);

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i} about ${topic} and the ordinary matters of ${topic} management in the region.`).join("\n\n");

test("an uploaded PDF's planted sentence is found first, with its page; a Markdown one with its section", async () => {
  const c = await kb.createCollection(alice, "Papers");
  const pdf = buildPdfPages({
    title: "Lake survey",
    pages: [[filler("fisheries", 3)], [filler("water quality", 3)], ["Notably, the otters of Lake Baikal sing at dawn in the cold months.", filler("weather", 2)]],
  });
  const doc = await kb.addDocument(alice, c.id, { name: "survey.pdf", bytes: pdf });
  assert.equal(doc.status, "ready");
  assert.equal(doc.pageCount, 3);
  await kb.addDocument(alice, c.id, { name: "notes.md", bytes: text(`# Field notes\n\n${filler("otters", 2)}\n\n## Baikal\n\nThe seals of Baikal are called nerpa.`) });
  await kb.addDocument(alice, c.id, { name: "other.txt", bytes: text(filler("singing birds", 5)) });

  const hits = await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "Do otters sing at Lake Baikal?" });
  assert.ok(hits.length >= 2);
  assert.equal(hits[0].documentName, "survey.pdf");
  assert.equal(hits[0].page, 3);
  assert.match(hits[0].text, /otters of Lake Baikal sing at dawn/);
  assert.ok(hits.every((h, i) => i === 0 || h.score <= hits[i - 1].score), "ranked");

  const nerpa = await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "nerpa" });
  assert.deepEqual(nerpa.map((h) => [h.documentName, h.section, h.page]), [["notes.md", "Field notes › Baikal", null]]);
  // Stemming: "singing" finds "sing".
  assert.ok((await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "singing otters" })).some((h) => h.page === 3));
});

test("another user's collection is not found, not listed and not searched", async () => {
  const c = await kb.createCollection(alice, "Private");
  await kb.addDocument(alice, c.id, { name: "secret.txt", bytes: text("The launch code is zebra quokka.") });
  const notFound = (e: unknown) => e instanceof AppError && e.code === "not_found:collection";
  await assert.rejects(kb.getCollection(bob, c.id), notFound);
  await assert.rejects(kb.renameCollection(bob, c.id, "Mine"), notFound);
  await assert.rejects(kb.deleteCollection(bob, c.id), notFound);
  await assert.rejects(kb.addDocument(bob, c.id, { name: "x.txt", bytes: text("x") }), notFound);
  await assert.rejects(kb.reindexCollection(bob, c.id), notFound);
  assert.ok(!(await kb.listCollections(bob)).some((x) => x.id === c.id));
  assert.deepEqual(await searchKnowledge({ userId: bob, collectionIds: [c.id], query: "zebra quokka" }), []);
  assert.equal((await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "zebra quokka" })).length, 1);
});

test("a file that cannot be read is refused, nothing of it indexed, and kept as a failed document until removed", async () => {
  const c = await kb.createCollection(alice, "Mixed");
  await kb.addDocument(alice, c.id, { name: "good.txt", bytes: text("A good document about kestrels.") });
  const locked = buildPdfPages({ title: "x", pages: [["kestrels"]], encrypted: true });
  await assert.rejects(kb.addDocument(alice, c.id, { name: "locked.pdf", bytes: locked }), /"locked.pdf": the PDF is password-protected/);
  await assert.rejects(kb.addDocument(alice, c.id, { name: "broken.pdf", bytes: text("%PDF-1.7 garbage") }), /"broken.pdf"/);
  const after = await kb.getCollection(alice, c.id);
  assert.deepEqual(after.documents.map((d) => [d.name, d.status, d.chunkCount]), [["good.txt", "ready", 1], ["locked.pdf", "failed", 0], ["broken.pdf", "failed", 0]]);
  assert.match(after.documents[1].error ?? "", /"locked.pdf": the PDF is password-protected/);
  assert.equal((await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "kestrels" })).length, 1, "the locked PDF's kestrels are not indexed");
  for (const d of after.documents.slice(1)) await kb.deleteDocument(alice, c.id, d.id);
  assert.deepEqual((await kb.getCollection(alice, c.id)).documents.map((d) => d.name), ["good.txt"]);
});

test("deleting a document or a collection removes its chunks from the index; a re-index rebuilds them", async () => {
  const c = await kb.createCollection(alice, "Temp");
  const d = await kb.addDocument(alice, c.id, { name: "a.txt", bytes: text("Axolotls regrow limbs.") });
  await kb.addDocument(alice, c.id, { name: "b.txt", bytes: text("Axolotls live in Xochimilco.") });
  const found = () => searchKnowledge({ userId: alice, collectionIds: [c.id], query: "axolotls" });
  assert.equal((await found()).length, 2);
  const { documents } = await kb.reindexCollection(alice, c.id);
  assert.deepEqual(documents.map((x) => [x.status, x.chunkCount]), [["ready", 1], ["ready", 1]]);
  assert.equal((await found()).length, 2, "re-indexed once, not twice");
  await kb.deleteDocument(alice, c.id, d.id);
  assert.deepEqual((await found()).map((h) => h.documentName), ["b.txt"]);
  const renamed = await kb.renameCollection(alice, c.id, "Renamed");
  assert.equal(renamed.name, "Renamed");
  await kb.deleteCollection(alice, c.id);
  assert.equal(await db.knowledgeChunk.count({ where: { collectionId: c.id } }), 0);
  assert.deepEqual(await found(), []);
  if (!testingOnPostgres()) {
    // The FTS5 index is separate from the rows (PostgreSQL's is an index on them): the triggers must
    // have removed the cascaded chunks' entries too.
    const [{ n }] = await db.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*) AS n FROM "KnowledgeChunkFts" WHERE "KnowledgeChunkFts" MATCH 'axolotls'`);
    assert.equal(Number(n), 0);
  }
});

test("the shared collection is readable by everyone and writable by no one", async () => {
  const shared = await sharedCollection({ sourceRoot: "/srv/docs", name: "Shared documents" });
  assert.ok((await kb.listCollections(bob)).some((x) => x.id === shared.id && x.shared));
  assert.equal((await kb.getCollection(bob, shared.id)).shared, true);
  await assert.rejects(kb.addDocument(bob, shared.id, { name: "x.txt", bytes: text("x") }), (e: unknown) => e instanceof AppError && e.code === "forbidden:collection");
  await assert.rejects(kb.deleteCollection(alice, shared.id), (e: unknown) => e instanceof AppError && e.code === "forbidden:collection");
});

test("a rare term outweighs a common one repeated: the ranking weighs terms by how few chunks hold them", async () => {
  const c = await kb.createCollection(alice, "Rarity");
  // "harbour" is in every document, said many times in one; "kelpie" in one document, once.
  for (let i = 0; i < 6; i++) await kb.addDocument(alice, c.id, { name: `common-${i}.txt`, bytes: text(`The harbour report number ${i} on boats.`) });
  await kb.addDocument(alice, c.id, { name: "repeated.txt", bytes: text("Harbour harbour harbour: the harbour, the harbour walls and the harbour gates.") });
  await kb.addDocument(alice, c.id, { name: "rare.txt", bytes: text("A kelpie was seen near the harbour at night.") });
  const hits = await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "harbour kelpie" });
  assert.equal(hits[0].documentName, "rare.txt");
  assert.equal(hits.length, 8, "every chunk holding a term is a match (the collection is small)");
  assert.ok(hits.every((h, i) => i === 0 || h.score <= hits[i - 1].score), "ranked");
});

test("in a large collection a query of only common words ranks the chunks holding them all; a rare word still leads", async () => {
  const c = await kb.createCollection(alice, "Large");
  const doc = await kb.addDocument(alice, c.id, { name: "seed.txt", bytes: text("A seed document.") });
  // 1,210 chunks: "tidal" and "basin" each in more than half of them, together in only five; one of
  // those five has "quokka", in no other chunk.
  const chunk = (i: number) => (i === 0 ? "The tidal basin has a quokka." : i < 5 ? `tidal basin note ${i}` : i < 607 ? `tidal note ${i} on water` : `basin note ${i} on water`);
  await db.knowledgeChunk.createMany({ data: Array.from({ length: 1_209 }, (_, i) => ({ documentId: doc.id, collectionId: c.id, ordinal: i + 10, text: chunk(i) })) });
  const common = await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "tidal basin" });
  const both = (h: { text: string }) => /tidal/i.test(h.text) && /basin/i.test(h.text);
  assert.ok(common.slice(0, 5).every(both), JSON.stringify(common.map((h) => h.text)));
  // Such a query's work is bounded: only the chunks holding every term are ranked.
  assert.equal(common.length, 5);
  const rare = await searchKnowledge({ userId: alice, collectionIds: [c.id], query: "tidal basin quokka" });
  assert.equal(rare[0].text, "The tidal basin has a quokka.");
});

test("a user's scores are the same before, while and after another user uploads and deletes documents with the same words", async () => {
  const mine = await kb.createCollection(alice, "Wetlands");
  await kb.addDocument(alice, mine.id, { name: "marsh.txt", bytes: text(`The heron nests in the reed marsh.\n\n${filler("drainage", 3)}`) });
  await kb.addDocument(alice, mine.id, { name: "delta.md", bytes: text(`# Delta\n\nHerons and egrets feed on the delta mudflats, where the reed beds end.\n\n## Water\n\n${filler("silt", 4)}`) });
  await kb.addDocument(alice, mine.id, { name: "fens.txt", bytes: text(filler("peat", 6)) });
  const queries = ["heron reed", "delta mudflats egrets", "peat drainage management", "silt region"];
  const scores = async () => Promise.all(queries.map(async (query) => (await searchKnowledge({ userId: alice, collectionIds: [mine.id], query })).map((h) => [h.text.slice(0, 40), h.score])));
  const before = await scores();
  assert.ok(before.every((hits) => hits.length > 0), JSON.stringify(before));

  // Bob's private documents full of the same words, short and long, in two collections.
  const theirs = await kb.createCollection(bob, "Birds");
  const other = await kb.createCollection(bob, "More birds");
  const docs = [];
  for (let i = 0; i < 4; i++) {
    docs.push(await kb.addDocument(bob, theirs.id, { name: `heron-${i}.txt`, bytes: text(`Heron heron reed ${"marsh ".repeat(i * 40)}delta mudflats egrets peat silt.`) }));
  }
  docs.push(await kb.addDocument(bob, other.id, { name: "long.txt", bytes: text(filler("heron reed drainage silt", 30)) }));
  assert.deepEqual(await scores(), before, "while another user's documents hold the words");
  const bobs = await searchKnowledge({ userId: bob, collectionIds: [theirs.id], query: "heron reed" });
  assert.equal(bobs.length, 4);
  assert.ok(bobs.every((h) => h.collectionId === theirs.id));

  for (const d of docs.slice(0, 2)) await kb.deleteDocument(bob, theirs.id, d.id);
  assert.deepEqual(await scores(), before, "after some are deleted");
  await kb.deleteCollection(bob, theirs.id);
  await kb.deleteCollection(bob, other.id);
  assert.deepEqual(await scores(), before, "after all are deleted");
});

test("a search over several collections ranks with the statistics of those collections together", async () => {
  const a = await kb.createCollection(alice, "Rivers");
  const b = await kb.createCollection(alice, "Lakes");
  await kb.addDocument(alice, a.id, { name: "a.txt", bytes: text("The pike hunts in the river.") });
  await kb.addDocument(alice, b.id, { name: "b.txt", bytes: text("The pike hunts in the lake, the lake, the lake.") });
  await kb.addDocument(alice, b.id, { name: "c.txt", bytes: text("A lake without fish.") });
  const both = await searchKnowledge({ userId: alice, collectionIds: [a.id, b.id], query: "pike" });
  assert.deepEqual(both.map((h) => h.documentName), ["a.txt", "b.txt"], "the shorter chunk first: lengths are compared over both collections");
  const one = await searchKnowledge({ userId: alice, collectionIds: [a.id], query: "pike" });
  assert.notEqual(one[0].score, both[0].score, "the idf of one collection is not that of two");
});
