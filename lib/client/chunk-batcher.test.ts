import { test } from "node:test";
import assert from "node:assert/strict";
import { chunkBatcher } from "./chunk-batcher";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("parts go in one batch after the interval; a snapshot goes at once with what came before it", async () => {
  const batches: string[][] = [];
  const b = chunkBatcher<{ type: string }>(30, (chunks) => batches.push(chunks.map((c) => c.type)));
  b.push({ type: "data-query" });
  b.push({ type: "data-website" });
  assert.deepEqual(batches, [], "held until the interval ends");
  await sleep(60);
  assert.deepEqual(batches, [["data-query", "data-website"]]);
  b.push({ type: "data-query" });
  b.push({ type: "data-snapshot" });
  assert.deepEqual(batches.at(-1), ["data-query", "data-snapshot"], "the snapshot is not held");
  await sleep(60);
  assert.equal(batches.length, 2, "nothing left for the cancelled timer");
});

test("stop drops what is waiting", async () => {
  const batches: unknown[] = [];
  const b = chunkBatcher<{ type: string }>(20, (chunks) => batches.push(chunks));
  b.push({ type: "data-query" });
  b.stop();
  await sleep(50);
  assert.deepEqual(batches, []);
});
