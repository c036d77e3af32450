import assert from "node:assert/strict";
import { test } from "node:test";
import { readSseJson } from "./sse";

function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
}

async function all(pieces: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of readSseJson(streamOf(pieces))) out.push(v);
  return out;
}

test("events split across reads, CRLF endings, [DONE] and a last event without its blank line", async () => {
  const big = { type: "data-snapshot", data: { text: "x".repeat(5000) } };
  const wire = `data: {"type":"start"}\n\ndata: ${JSON.stringify(big)}\n\n: keep-alive\n\ndata: {"type":"finish"}\r\n\r\ndata: [DONE]\n\ndata: {"type":"tail"}`;
  const pieces: string[] = [];
  for (let i = 0; i < wire.length; i += 7) pieces.push(wire.slice(i, i + 7));
  assert.deepEqual(await all(pieces), [{ type: "start" }, big, { type: "finish" }, { type: "tail" }]);
});

test("a malformed event is skipped, not fatal", async () => {
  assert.deepEqual(await all(['data: {"type":\n\n', 'data: {"type":"ok"}\n\n']), [{ type: "ok" }]);
});
