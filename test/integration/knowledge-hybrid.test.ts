// Hybrid ranking against the running app, with EMBEDDING_MODEL set and a fake embeddings endpoint
// whose vectors this test decides: a document that shares no word with the query is found by its
// vector alone and ranks first; the embedding requests of the uploads and of the search are recorded
// against the user who made them (their LLM-call rows, kinds knowledge-index and knowledge-search).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startFakeEmbeddings } from "../fakes/embeddings-server";
import { TestApp } from "../helpers/app-server";

// No document holds either word: full text finds nothing, the vectors find the kelp passage.
const QUERY = "seaweed meadows";
let fake: Awaited<ReturnType<typeof startFakeEmbeddings>>;
let app: TestApp;

before(async () => {
  // The query and the kelp passage point one way; everything else across.
  fake = await startFakeEmbeddings((text) => (text === QUERY || /kelp/i.test(text) ? [1, 0, 0] : [0, 1, 0]));
  app = await TestApp.start({ name: "knowledge-hybrid", env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "test-key", EMBEDDING_MODEL: "fake-embedding" } });
});
after(async () => {
  await app?.stop();
  await fake?.stop();
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
