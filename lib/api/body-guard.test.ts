// Bodies refused early on the HTTP server: a declared length over the path's limit is a 413 before a
// byte of the body is read (the route's handler never runs), a body that trickles is a 408 after
// API_BODY_TIMEOUT_MS (a large one still arriving at API_BODY_MIN_BYTES_PER_SECOND goes on), and a body
// within its limit and its time reaches the handler whole.
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { after, before, test } from "node:test";

process.env.API_BODY_TIMEOUT_MS = "400";
// The start's upload limit (200 MiB by default) held low here, so that a 12 MiB upload passes it.
process.env.DEEP_RESEARCH_MAX_UPLOAD_BYTES = String(8 * 1024 * 1024);
const { bodyLimitOf, declaredLength, MULTIPART_ALLOWANCE } = await import("./body-limits");
const { guardRequestBodies } = await import("./body-guard");
const { getEnv } = await import("../env");

test("each path's limit: the upload routes' own (with the multipart allowance), else the JSON limit", () => {
  const env = getEnv();
  assert.equal(bodyLimitOf("/api/collections/c1/documents", env).maxBytes, env.KNOWLEDGE_MAX_FILE_BYTES + MULTIPART_ALLOWANCE);
  assert.equal(bodyLimitOf("/api/deep-research/start", env).maxBytes, env.DEEP_RESEARCH_MAX_UPLOAD_BYTES + MULTIPART_ALLOWANCE);
  for (const path of ["/api/research/start", "/api/collections/c1", "/api/collections/c1/documents/d1", "/v1/chat/completions", "/"]) {
    assert.equal(bodyLimitOf(path, env).maxBytes, env.API_MAX_BODY_BYTES, path);
  }
  assert.equal(bodyLimitOf("/api/collections/c1/documents", env).tooLarge().code, "payload_too_large:document");
  assert.match(bodyLimitOf("/api/research/start", env).tooLarge().message, /limit of 1 MiB \(API_MAX_BODY_BYTES\)/);
  assert.equal(declaredLength("12"), 12);
  for (const header of [undefined, null, "", " ", "x", "-1"]) assert.equal(declaredLength(header), undefined, String(header));
});

let server: http.Server;
let port: number;
/** What the handler (Next, in the app) received: path and body length. */
const handled: { path: string; bytes: number }[] = [];

before(async () => {
  guardRequestBodies();
  server = http.createServer((req, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => {
      handled.push({ path: req.url ?? "", bytes });
      res.end(JSON.stringify({ bytes }));
    });
    req.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

after(() => server.close());

/** Sends the head, then the body's pieces `everyMs` apart; resolves with the raw response and when it came. */
function exchange(head: string, pieces: string[] = [], everyMs = 0): Promise<{ text: string; ms: number; closed: boolean }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let ms = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on("data", (d) => {
      if (!text) ms = performance.now() - started;
      text += d.toString();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ text, ms, closed: true });
    });
    socket.write(head);
    const rest = [...pieces];
    if (everyMs === 0) for (const p of rest.splice(0)) socket.write(p);
    else timer = setInterval(() => (rest.length ? socket.write(rest.shift()!) : clearInterval(timer)), everyMs);
    // A response that leaves the connection open: take it once it is complete.
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
    }, 3_000);
  });
}

const head = (path: string, length: number, extra = "") => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;

test("a declared 2 GB is a 413 at once, in the API's shape with a request id, nothing read, the connection closed", async () => {
  handled.length = 0;
  const { text, ms, closed } = await exchange(head("/api/research/start", 2 * 1024 ** 3), ["{}"]);
  assert.match(text, /^HTTP\/1\.1 413 /);
  assert.ok(ms < 1_000, `answered after ${Math.round(ms)} ms`);
  assert.match(text, /x-request-id: [0-9a-f-]{36}/i);
  assert.match(text, /connection: close/i);
  assert.equal(bodyOf(text).code, "payload_too_large:body");
  assert.ok(closed);
  assert.deepEqual(handled, [], "the handler never saw the request");
});

test("under /v1 the 413 is OpenAI-shaped; an upload route takes more than the JSON limit", async () => {
  const v1 = await exchange(head("/v1/chat/completions", 5 * 1024 * 1024));
  assert.match(v1.text, /^HTTP\/1\.1 413 /);
  assert.equal((bodyOf(v1.text).error as { code: string }).code, "payload_too_large_body");
  const doc = await exchange(head("/api/collections/c1/documents", 9 * 1024 * 1024));
  assert.equal(bodyOf(doc.text).code, "payload_too_large:document");
  handled.length = 0;
  const within = "x".repeat(2 * 1024 * 1024);
  const ok = await exchange(head("/api/collections/c1/documents", within.length, "Connection: close\r\n"), [within]);
  assert.match(ok.text, /^HTTP\/1\.1 200 /);
  assert.deepEqual(handled, [{ path: "/api/collections/c1/documents", bytes: within.length }]);
});

test("a body that trickles is cut off with a 408 after API_BODY_TIMEOUT_MS; one that arrives in time is not", async () => {
  const slow = await exchange(head("/api/research/start", 100), Array.from({ length: 50 }, () => "xx"), 100);
  assert.match(slow.text, /^HTTP\/1\.1 408 /);
  assert.equal(bodyOf(slow.text).code, "request_timeout:body");
  assert.ok(slow.ms >= 350 && slow.ms < 1_500, `cut off after ${Math.round(slow.ms)} ms (timeout 400 ms)`);
  assert.ok(slow.closed);
  // In time, on a connection kept open past the timeout: no 408 comes after the answer.
  handled.length = 0;
  const fine = await exchange(head("/api/research/start", 4), ["{}", "{}"], 50);
  assert.match(fine.text, /^HTTP\/1\.1 200 /);
  assert.doesNotMatch(fine.text, /408/);
  assert.deepEqual(handled, [{ path: "/api/research/start", bytes: 4 }]);
});

test("a large body still arriving at the minimum rate goes on past API_BODY_TIMEOUT_MS; one that stalls midway is a 408", async () => {
  handled.length = 0;
  // 1 MiB in 64 KiB pieces every 60 ms: about a second, well above 64 KiB/s, against a 400 ms timeout.
  const piece = "x".repeat(64 * 1024);
  const pieces = Array.from({ length: 16 }, () => piece);
  const steady = await exchange(head("/api/collections/c1/documents", 16 * piece.length, "Connection: close\r\n"), pieces, 60);
  assert.match(steady.text, /^HTTP\/1\.1 200 /);
  assert.deepEqual(handled, [{ path: "/api/collections/c1/documents", bytes: 16 * piece.length }]);
  // Half of it at once, then nothing: cut off once a timeout passes with no byte.
  const stalled = await exchange(head("/api/collections/c1/documents", 16 * piece.length), [piece.repeat(8)], 0);
  assert.match(stalled.text, /^HTTP\/1\.1 408 /);
  assert.equal(bodyOf(stalled.text).code, "request_timeout:body");
  assert.ok(stalled.ms < 1_500, `cut off after ${Math.round(stalled.ms)} ms`);
});

test("a refused body of a few megabytes that the client goes on sending gets its 413, not a reset connection", async () => {
  handled.length = 0;
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/research/start`, { method: "POST", headers: { "content-type": "application/json" }, body: new Uint8Array(6 * 1024 * 1024) });
  assert.equal(res.status, 413);
  assert.equal(((await res.json()) as { code: string }).code, "payload_too_large:body");
  assert.ok(performance.now() - started < 3_000);
  // A multipart upload, sent as a stream of parts.
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(12 * 1024 * 1024)]), "big.bin");
  const upload = await fetch(`http://127.0.0.1:${port}/api/deep-research/start`, { method: "POST", body: form });
  assert.equal(upload.status, 413);
  assert.deepEqual(handled, [], "the handler never saw the request");
});
