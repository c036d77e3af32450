// The fake LLM's POST /v1/embeddings: OpenAI's wire format (floats or base64), vectors by meaning
// (synonyms point the same way, unrelated texts do not), the texts it embedded, and a provider that is
// down (failAll) is down for embeddings too.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { FakeLlm } from "./llm-server";
import { DIMENSIONS, fakeEmbedding } from "./llm-embeddings";

const cosine = (a: number[], b: number[]) => a.reduce((n, x, i) => n + x * b[i], 0);
let llm: FakeLlm;

before(async () => {
  llm = new FakeLlm();
  await llm.start();
});
after(async () => llm.stop());

const post = (body: unknown) => fetch(`${llm.url}/embeddings`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("vectors by meaning: synonyms close, unrelated texts far, unit length, deterministic", () => {
  const kelp = fakeEmbedding("Kelp forests thrive in cold water.");
  assert.equal(kelp.length, DIMENSIONS);
  assert.ok(Math.abs(Math.hypot(...kelp) - 1) < 1e-9);
  assert.deepEqual(fakeEmbedding("Kelp forests thrive in cold water."), kelp);
  assert.ok(cosine(fakeEmbedding("seaweed meadows"), kelp) > 0.4);
  assert.ok(cosine(fakeEmbedding("desert plants store water in stems"), fakeEmbedding("seaweed meadows")) < 0.1);
});

test("POST /v1/embeddings answers as OpenAI does, logs the texts, refuses bad input, and fails with failAll", async () => {
  const res = await post({ model: "fake-embedding", input: ["one text", "another text"] });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { data: { index: number; embedding: number[] }[]; model: string; usage: { prompt_tokens: number } };
  assert.deepEqual(body.data.map((d) => d.index), [0, 1]);
  assert.deepEqual(body.data[0].embedding, fakeEmbedding("one text"));
  assert.equal(body.model, "fake-embedding");
  assert.ok(body.usage.prompt_tokens > 0);
  assert.deepEqual(llm.embedded, ["one text", "another text"]);
  assert.equal(llm.calls(), 0, "embeddings are not chat calls");

  const b64 = (await (await post({ model: "m", input: "one text", encoding_format: "base64" })).json()) as { data: { embedding: string }[] };
  const floats = new Float32Array(Uint8Array.from(Buffer.from(b64.data[0].embedding, "base64")).buffer);
  const expected = fakeEmbedding("one text");
  assert.equal(floats.length, DIMENSIONS);
  assert.ok(expected.every((v, i) => Math.abs(floats[i] - v) < 1e-6), "the base64 floats are the vector");

  assert.equal((await post({ model: "m", input: [] })).status, 400);
  assert.equal((await post({ model: "m", input: [1, 2] })).status, 400);
  llm.configure({ failAll: 503 });
  assert.equal((await post({ model: "m", input: "x" })).status, 503);
  llm.reset();
  assert.deepEqual(llm.embedded, []);
});
