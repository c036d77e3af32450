// Oversized and trickling bodies through the real server (next start, with proxy.ts in front of the
// routes): a declared length over the path's limit is a 413 before the body is sent, signed in or not;
// a body that trickles is a 408 after API_BODY_TIMEOUT_MS; the server answers others meanwhile.
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, test } from "node:test";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";

let fakes: Fakes;
let app: TestApp;
const TIMEOUT_MS = 2_000;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "body-limits", env: { ...fakes.env, API_BODY_TIMEOUT_MS: String(TIMEOUT_MS) } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

/** Sends the head and then `body` a piece every `everyMs`; resolves with the response's head line and when it came. */
function send(head: string, body: { piece: string; pieces: number; everyMs: number } | null): Promise<{ status: number; ms: number; text: string }> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname);
    let text = "";
    let ms = 0;
    let sent = 0;
    const timer = body ? setInterval(() => (sent++ < body.pieces ? socket.write(body.piece) : clearInterval(timer)), body.everyMs) : undefined;
    const end = () => {
      clearInterval(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      status ? resolve({ status, ms, text }) : reject(new Error(`no answer: ${text.slice(0, 200)}`));
    };
    socket.on("data", (d) => {
      if (!text) ms = performance.now() - started;
      text += d.toString();
    });
    socket.on("error", () => {});
    socket.on("close", end);
    setTimeout(end, 60_000);
    socket.write(head);
  });
}

const post = (path: string, length: number, auth = true) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${auth ? `Authorization: Bearer ${app.user.token}\r\n` : ""}\r\n`;

test("a declared 2 GB, and 3 MB sent at 200 KB/s, are refused at once with a 413 naming the limit", async () => {
  const huge = await send(post("/api/research/start", 2 * 1024 ** 3), null);
  assert.equal(huge.status, 413);
  assert.ok(huge.ms < 1_000, `2 GB declared: answered after ${Math.round(huge.ms)} ms`);
  assert.match(huge.text, /payload_too_large:body/);
  const slow = await send(post("/api/research/start", 3 * 1024 * 1024, false), { piece: "a".repeat(20 * 1024), pieces: 150, everyMs: 100 });
  assert.equal(slow.status, 413, "signed out too: the size is checked first");
  assert.ok(slow.ms < 1_000, `3 MB at 200 KB/s: answered after ${Math.round(slow.ms)} ms (was 14.7 s)`);
  const doc = await send(post("/api/collections/any/documents", 100 * 1024 * 1024), null);
  assert.equal(doc.status, 413);
  assert.match(doc.text, /KNOWLEDGE_MAX_FILE_BYTES/);
});

test("a body that trickles is cut off with a 408 after API_BODY_TIMEOUT_MS, and the server answers others meanwhile", async () => {
  const trickle = send(post("/api/research/start", 1_000), { piece: "a", pieces: 1_000, everyMs: 100 });
  const at = performance.now();
  const status = await app.fetch("/api/config/status");
  assert.equal(status.status, 200);
  assert.ok(performance.now() - at < 1_000, "another request is answered while a body trickles");
  const cut = await trickle;
  assert.equal(cut.status, 408);
  assert.match(cut.text, /request_timeout:body/);
  assert.ok(cut.ms >= TIMEOUT_MS - 100 && cut.ms < TIMEOUT_MS + 3_000, `cut off after ${Math.round(cut.ms)} ms`);
});
