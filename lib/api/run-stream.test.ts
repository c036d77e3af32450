import assert from "node:assert/strict";
import { test } from "node:test";
import { createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import { encodeUIMessageStream, runStreamResponse } from "./run-stream";

const chunks: UIMessageChunk[] = [
  { type: "start" },
  { type: "data-website", id: "w1", data: { items: [{ content: "Ünïcödé, emoji 🔋, a lone surrogate \ud800 and quotes \"" }] } },
  { type: "finish" },
];
const source = (list: UIMessageChunk[]) => new ReadableStream<UIMessageChunk>({ start: (c) => { for (const chunk of list) c.enqueue(chunk); c.close(); } });

test("a run stream's bytes and headers are the AI SDK's UI message stream response's", async () => {
  const ours = runStreamResponse({ stream: source(chunks), final: false });
  const sdk = createUIMessageStreamResponse({ stream: source(chunks), keepAliveMs: 15_000 });
  assert.deepEqual(Buffer.from(await ours.arrayBuffer()), Buffer.from(await sdk.arrayBuffer()));
  for (const name of ["content-type", "x-vercel-ai-ui-message-stream", "x-accel-buffering", "connection"]) assert.equal(ours.headers.get(name), sdk.headers.get(name), name);
  assert.equal(ours.headers.get("cache-control"), "no-cache, no-transform", "a live run's stream is never compressed");
  const ended = runStreamResponse({ stream: source(chunks), final: true });
  assert.equal(ended.headers.get("cache-control"), "no-cache");
  await ended.body!.cancel();
});

test("an idle run stream gets keep-alive comments, and none once it has ended", async () => {
  let push!: ReadableStreamDefaultController<UIMessageChunk>;
  const reader = encodeUIMessageStream(new ReadableStream<UIMessageChunk>({ start: (c) => void (push = c) }), { keepAliveMs: 20 }).getReader();
  const decoder = new TextDecoder();
  const next = async () => decoder.decode((await reader.read()).value);
  assert.equal(await next(), ": stream-open\n\n");
  assert.equal(await next(), ": keep-alive\n\n", "nothing sent for a whole interval");
  push.enqueue({ type: "start" });
  assert.equal(await next(), 'data: {"type":"start"}\n\n');
  push.close();
  assert.equal(await next(), "data: [DONE]\n\n");
  assert.equal((await reader.read()).done, true);
});

test("a cancelled run stream cancels its source", async () => {
  let cancelled: unknown;
  const body = encodeUIMessageStream(new ReadableStream<UIMessageChunk>({ cancel: (reason) => void (cancelled = reason) }), { keepAliveMs: 10 });
  const reader = body.getReader();
  await reader.read();
  await reader.cancel("client left");
  assert.equal(cancelled, "client left");
  // The keep-alive timer finds the stream cancelled at its next tick and stops: the test ends (it would time out otherwise).
});
