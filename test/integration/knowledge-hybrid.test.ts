// Hybrid ranking against the running app, with EMBEDDING_MODEL set and a fake embeddings endpoint
// whose vectors this test decides: a document that shares no word with the query is found by its
// vector alone and ranks first; the embedding requests of the uploads and of the search are recorded
// against the user who made them (their LLM-call rows, kinds knowledge-index and knowledge-search).
// Then end to end against the main fake LLM's own /v1/embeddings (test/fakes/llm-embeddings.ts), as a
// deployment whose provider serves both: upload → index with embeddings (every chunk's vector stored)
// → hybrid search that finds a passage by meaning alone, ranked with the page or section.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { buildPdfPages, startFakes, type Fakes } from "../fakes";
import { startFakeEmbeddings } from "../fakes/embeddings-server";
import { TestApp } from "../helpers/app-server";

// No document holds either word: full text finds nothing, the vectors find the kelp passage.
const QUERY = "seaweed meadows";
let fake: Awaited<ReturnType<typeof startFakeEmbeddings>>;
let app: TestApp;
let fakes: Fakes | undefined;
let llmApp: TestApp | undefined;

before(async () => {
  // The query and the kelp passage point one way; everything else across.
  fake = await startFakeEmbeddings((text) => (text === QUERY || /kelp/i.test(text) ? [1, 0, 0] : [0, 1, 0]));
  app = await TestApp.start({ name: "knowledge-hybrid", env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "test-key", EMBEDDING_MODEL: "fake-embedding" } });
});
after(async () => {
  await app?.stop();
  await fake?.stop();
  await llmApp?.stop();
  await fakes?.stop();
});

function upload(collectionId: string, name: string, text: string): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([new TextEncoder().encode(text)]), name);
  return app.fetch(`/api/collections/${collectionId}/documents`, { method: "POST", body: form });
}

test("a document found only by meaning ranks first through the API, and every embedding request is recorded against the user", async () => {
  const created = await app.postJson("/api/collections", { name: "Coast" });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = ((await created.json()) as { collection: { id: string } }).collection;
  for (const [name, text] of [
    ["kelp.txt", "Kelp grows fast in cold water along rocky coasts."],
    ["dunes.txt", "Underwater dunes of sand move with the tides and the seasons."],
    ["desert.txt", "Desert plants store water in their stems."],
  ]) {
    const res = await upload(id, name, text);
    assert.equal(res.status, 201, await res.clone().text());
  }
  const res = await app.fetch(`/api/collections/${id}/search?q=${encodeURIComponent(QUERY)}`);
  assert.equal(res.status, 200, await res.clone().text());
  const results = ((await res.json()) as { results: { documentName: string; text: string }[] }).results;
  assert.equal(results[0]?.documentName, "kelp.txt", JSON.stringify(results.map((r) => r.documentName)));
  assert.match(results[0].text, /Kelp grows fast/);
  assert.ok(fake.embedded.includes(QUERY), "the query was embedded");

  const user = await app.db.user.findFirstOrThrow({ where: { collections: { some: { id } } } });
  const calls = await app.db.planningCall.findMany({ where: { userId: user.id }, orderBy: { startedAt: "asc" } });
  assert.deepEqual(calls.map((c) => c.kind), ["knowledge-index", "knowledge-index", "knowledge-index", "knowledge-search"]);
  assert.ok(calls.every((c) => c.llmCalls === 1 && c.promptTokens > 0 && c.endedAt !== null), JSON.stringify(calls));
  // The fake endpoint reports one token per text: three chunks, one query.
  assert.equal(calls.reduce((n, c) => n + c.promptTokens, 0), fake.embedded.length);
});

test("end to end on the fake LLM's /v1/embeddings: upload → index with embeddings → hybrid search finds by meaning, with the page or section", async () => {
  fakes = await startFakes();
  llmApp = await TestApp.start({ name: "knowledge-hybrid-llm", env: { ...fakes.env, EMBEDDING_MODEL: "fake-embedding" } });
  const created = await llmApp.postJson("/api/collections", { name: "Shoreline" });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = ((await created.json()) as { collection: { id: string } }).collection;
  const send = (name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)]), name);
    return llmApp!.fetch(`/api/collections/${id}/documents`, { method: "POST", body: form });
  };
  const files: [string, Uint8Array][] = [
    // Page 2 says it in other words: "kelp" and "forests" where the query says "seaweed meadows".
    ["survey.pdf", buildPdfPages({ title: "Survey", pages: [["The survey covered twelve rocky sites."], ["Kelp forests thrive in cold, nutrient-rich water."]] })],
    ["notes.md", new TextEncoder().encode("# Notes\n\n## Dunes\n\nUnderwater dunes of sand move with the tides.")],
    ["desert.txt", new TextEncoder().encode("Desert plants store water in their stems.")],
  ];
  for (const [name, bytes] of files) {
    const res = await send(name, bytes);
    assert.equal(res.status, 201, await res.clone().text());
  }
  // Indexed with embeddings: every chunk was embedded by the fake LLM and its vector stored with the model.
  const chunks = await llmApp.db.knowledgeChunk.findMany({ where: { collectionId: id }, select: { text: true, embeddingModel: true } });
  assert.ok(chunks.length >= 4, `${chunks.length} chunks`);
  assert.ok(chunks.every((c) => c.embeddingModel === "fake-embedding"), JSON.stringify(chunks));
  for (const c of chunks) assert.ok(fakes.llm.embedded.includes(c.text), `embedded: ${c.text}`);
  assert.equal(fakes.llm.calls(), 0, "no chat completion was needed");

  // No document holds "seaweed" or "meadows": full text alone finds nothing; the vectors find page 2.
  const res = await llmApp.fetch(`/api/collections/${id}/search?q=${encodeURIComponent("seaweed meadows")}`);
  assert.equal(res.status, 200, await res.clone().text());
  const results = ((await res.json()) as { results: { documentName: string; page: number | null; section: string | null; text: string }[] }).results;
  assert.equal(results[0]?.documentName, "survey.pdf", JSON.stringify(results.map((r) => r.documentName)));
  assert.equal(results[0].page, 2);
  assert.match(results[0].text, /Kelp forests thrive/);
  assert.ok(fakes.llm.embedded.includes("seaweed meadows"), "the query was embedded");
  // A word the text holds is still found by full text, fused with the vectors, with its section.
  const dunes = ((await (await llmApp.fetch(`/api/collections/${id}/search?q=dunes`)).json()) as { results: { documentName: string; section: string | null }[] }).results;
  assert.deepEqual([dunes[0]?.documentName, dunes[0]?.section], ["notes.md", "Notes › Dunes"]);
});
