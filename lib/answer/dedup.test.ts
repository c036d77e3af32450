import assert from "node:assert/strict";
import { test } from "node:test";
import { dropDuplicates, textSimilarity } from "./dedup";

test("questions differing in case, punctuation and plurals are near-duplicates; different ones are not", () => {
  assert.ok(textSimilarity("What is the context length of Model X?", "what is the context-length of model x") >= 0.8);
  assert.ok(textSimilarity("What are the prices of GPUs?", "What are the price of GPU") >= 0.8);
  assert.ok(textSimilarity("When was Model X released?", "What is the context length of Model X?") < 0.8);
});

test("duplicates of earlier questions and of each other are dropped, by text", async () => {
  const kept = await dropDuplicates(["What is the context length of Model X?", "When was Model X released?", "when was model X released"], ["What is the context length of model X"]);
  assert.deepEqual(kept, ["When was Model X released?"]);
});

test("with embeddings, closeness of vectors decides", async () => {
  const vectors: Record<string, number[]> = { a: [1, 0], b: [0.99, 0.05], c: [0, 1], old: [1, 0.01] };
  const kept = await dropDuplicates(["a", "b", "c"], ["old"], async (texts) => texts.map((t) => vectors[t]));
  assert.deepEqual(kept, ["c"]);
});
