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

test("messages that wait together go in one chunk, and the bytes are the same as one chunk each", async () => {
  const many: UIMessageChunk[] = [{ type: "start" }, ...Array.from({ length: 200 }, (_, i): UIMessageChunk => ({ type: "data-website", id: `w${i}`, data: { i } })), { type: "finish" }];
  const reader = encodeUIMessageStream(source(many)).getReader();
  const pieces: Uint8Array[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(r.value);
  const sdk = createUIMessageStreamResponse({ stream: source(many), keepAliveMs: 15_000 });
  assert.deepEqual(Buffer.concat(pieces), Buffer.from(await sdk.arrayBuffer()));
  // The opening comment, 202 messages in chunks of at most 64, then [DONE].
  assert.ok(pieces.length <= 1 + Math.ceil(202 / 64) + 1, `${pieces.length} chunks for 202 messages`);

  // A message that comes later is sent when it comes, not held for others.
  let push!: ReadableStreamDefaultController<UIMessageChunk>;
  const live = encodeUIMessageStream(new ReadableStream<UIMessageChunk>({ start: (c) => void (push = c) })).getReader();
  const decoder = new TextDecoder();
  await live.read();
  push.enqueue({ type: "start" });
  push.enqueue({ type: "data-website", id: "a", data: {} });
  assert.equal(decoder.decode((await live.read()).value), 'data: {"type":"start"}\n\ndata: {"type":"data-website","id":"a","data":{}}\n\n');
  const later = live.read();
  setTimeout(() => push.enqueue({ type: "finish" }), 20);
  assert.equal(decoder.decode((await later).value), 'data: {"type":"finish"}\n\n');
  push.close();
  assert.equal(decoder.decode((await live.read()).value), "data: [DONE]\n\n");
  assert.equal((await live.read()).done, true);
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
