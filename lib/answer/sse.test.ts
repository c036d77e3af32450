import assert from "node:assert/strict";
import { test } from "node:test";
import { sseStream } from "./stream";

const read = async (body: ReadableStream<Uint8Array>) => new Response(body).text();

test("sseStream: run's frames, then end's, then the body closes", async () => {
  const body = sseStream({ signal: new AbortController().signal, run: async (write) => write("data: 1\n\n"), failed: () => assert.fail("no failure"), end: (write) => write("data: [DONE]\n\n"), cancel: () => {} });
  assert.equal(await read(body), "data: 1\n\ndata: [DONE]\n\n");
});

test("sseStream: a failure of run is written by failed, before end; not when the request was aborted", async () => {
  const failing = (signal: AbortSignal) =>
    sseStream({
      signal,
      run: async (write) => {
        write("data: 1\n\n");
        throw new Error("boom");
      },
      failed: (message, write) => write(`data: failed ${message}\n\n`),
      end: (write) => write("data: end\n\n"),
      cancel: () => {},
    });
  assert.equal(await read(failing(new AbortController().signal)), "data: 1\n\ndata: failed boom\n\ndata: end\n\n");
  const aborted = new AbortController();
  aborted.abort();
  assert.equal(await read(failing(aborted.signal)), "data: 1\n\ndata: end\n\n");
});

test("sseStream: the client going away runs cancel, and later writes are dropped", async () => {
  let cancelled = 0;
  let release!: () => void;
  const wait = new Promise<void>((r) => (release = r));
  let wroteAfter = false;
  const body = sseStream({
    signal: new AbortController().signal,
    run: async (write) => {
      write("data: 1\n\n");
      await wait;
      write("data: 2\n\n");
      wroteAfter = true;
    },
    failed: () => assert.fail("no failure"),
    cancel: () => {
      cancelled++;
      release();
    },
  });
  const reader = body.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), "data: 1\n\n");
  await reader.cancel();
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(cancelled, 1);
  assert.equal(wroteAfter, true, "run went on and its write was dropped without an error");
});
