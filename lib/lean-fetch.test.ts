// The LLM's and SearXNG's fetch behaves as fetch does for what those calls use: a request's method,
// headers and body; a JSON reply read whole, an event stream as it arrives; compressed replies;
// redirects; abort and network failures as fetch reports them.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import zlib from "node:zlib";
import { isReadWhole, leanFetch } from "./lean-fetch";

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

let release: () => void = () => {};
let main: Awaited<ReturnType<typeof serve>>;
let other: Awaited<ReturnType<typeof serve>>;

before(async () => {
  other = await serve((req, body, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ method: req.method, body, authorization: req.headers.authorization ?? null }));
  });
  main = await serve((req, body, res) => {
    const path = req.url ?? "/";
    if (path === "/echo") {
      res.writeHead(201, { "content-type": "application/json", "x-request-id": "r1" });
      res.end(JSON.stringify({ method: req.method, body, type: req.headers["content-type"], authorization: req.headers.authorization, language: req.headers["accept-language"] }));
    } else if (path === "/events") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      // The second event only after the client has read the first: it must get that one as it came.
      release = () => res.end("data: two\n\n");
    } else if (path === "/gzip" || path === "/br") {
      const json = Buffer.from(JSON.stringify({ compressed: path.slice(1) }));
      res.writeHead(200, { "content-type": "application/json", "content-encoding": path === "/gzip" ? "gzip" : "br" });
      res.end(path === "/gzip" ? zlib.gzipSync(json) : zlib.brotliCompressSync(json));
    } else if (path === "/307") {
      res.writeHead(307, { location: "/echo" }).end();
    } else if (path === "/303") {
      res.writeHead(303, { location: "/echo" }).end();
    } else if (path === "/elsewhere") {
      res.writeHead(307, { location: `${other.url}/` }).end();
    } else if (path === "/loop") {
      res.writeHead(302, { location: "/loop" }).end();
    } else if (path === "/stall-headers") {
      // never answers
    } else if (path === "/stall-body") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"half":');
    } else if (path === "/empty") {
      res.writeHead(204).end();
    } else {
      res.writeHead(404, { "content-type": "text/plain" }).end("no such path");
    }
  });
});
after(async () => {
  await main.close();
  await other.close();
});

const post = (body: string, headers: Record<string, string> = {}) => ({ method: "POST", body, headers: { "Content-Type": "application/json", Authorization: "Bearer k", ...headers } });

describe("leanFetch", () => {
  it("sends the method, headers and body, and hands back the status, headers and a body read whole", async () => {
    const response = await leanFetch(`${main.url}/echo`, post('{"q":1}'));
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("x-request-id"), "r1");
    assert.equal(isReadWhole(response), true);
    assert.deepEqual(await response.json(), { method: "POST", body: '{"q":1}', type: "application/json", authorization: "Bearer k", language: "*" });
  });

  it("passes an event stream on as it arrives, not read whole", async () => {
    const response = await leanFetch(new URL(`${main.url}/events`));
    assert.equal(isReadWhole(response), false);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("one")) text += (await reader.read()).value ?? "";
    assert.equal(text, "data: one\n\n");
    release();
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += next.value;
    assert.equal(text, "data: one\n\ndata: two\n\n");
  });

  it("decodes gzip and brotli replies", async () => {
    for (const encoding of ["gzip", "br"]) {
      const response = await leanFetch(`${main.url}/${encoding}`);
      assert.equal(response.headers.get("content-encoding"), null);
      assert.deepEqual(await response.json(), { compressed: encoding });
    }
  });

  it("follows redirects as fetch does: 307 resends the body, 303 becomes a GET, another origin gets no credentials", async () => {
    assert.deepEqual(await (await leanFetch(`${main.url}/307`, post("again"))).json(), { method: "POST", body: "again", type: "application/json", authorization: "Bearer k", language: "*" });
    const seen = (await (await leanFetch(`${main.url}/303`, post("dropped"))).json()) as Record<string, unknown>;
    assert.equal(seen.method, "GET");
    assert.equal(seen.body, "");
    assert.equal(seen.type, undefined);
    assert.deepEqual(await (await leanFetch(`${main.url}/elsewhere`, post("moved"))).json(), { method: "POST", body: "moved", authorization: null });
    await assert.rejects(leanFetch(`${main.url}/loop`), /more than 5 redirects/);
  });

  it("rejects with the signal's reason when aborted before the reply or in its body", async () => {
    for (const path of ["/stall-headers", "/stall-body"]) {
      const started = Date.now();
      await assert.rejects(leanFetch(`${main.url}${path}`, { signal: AbortSignal.timeout(100) }), (error: Error) => error.name === "TimeoutError");
      assert.ok(Date.now() - started < 5_000);
    }
    const controller = new AbortController();
    controller.abort(new Error("stopped by the user"));
    await assert.rejects(leanFetch(`${main.url}/echo`, { signal: controller.signal }), /stopped by the user/);
  });

  it("reports an unreachable server as fetch does, and answers 204 and 404 as they come", async () => {
    const closed = await serve(() => {});
    await closed.close();
    await assert.rejects(leanFetch(`${closed.url}/`), (error: Error) => error instanceof TypeError && error.message === "fetch failed" && /ECONNREFUSED/.test(String((error.cause as Error).message)));
    const empty = await leanFetch(`${main.url}/empty`);
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
    const missing = await leanFetch(`${main.url}/nowhere`);
    assert.equal(missing.status, 404);
    assert.equal(await missing.text(), "no such path");
  });

  it("closes an idle connection a second before the server's keep-alive timeout, never one in use", async () => {
    const closed: number[] = [];
    let connections = 0;
    const server = http.createServer((req, res) => setTimeout(() => res.end("ok"), req.url === "/slow" ? 1_500 : 0));
    server.keepAliveTimeout = 2_000; // announced as "Keep-Alive: timeout=2"
    server.on("connection", (socket) => {
      connections++;
      socket.on("close", () => closed.push(Date.now()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await (await leanFetch(`${url}/fast`)).text();
      // The kept connection again, for a reply slower than its idle timeout (1 s): it stays open.
      assert.equal(await (await leanFetch(`${url}/slow`)).text(), "ok");
      assert.equal(connections, 1);
      assert.deepEqual(closed, []);
      const idleFrom = Date.now();
      while (closed.length === 0 && Date.now() - idleFrom < 5_000) await new Promise((r) => setTimeout(r, 20));
      const idleMs = closed[0] - idleFrom;
      assert.ok(idleMs >= 700 && idleMs < 1_800, `closed by the client after ${idleMs} ms idle (the server would at 2,000)`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("leaves a streamed request body to Node's own fetch", async () => {
    const body = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode("streamed")), c.close()) });
    const response = await leanFetch(`${main.url}/echo`, { method: "POST", body, duplex: "half" } as RequestInit);
    assert.equal(((await response.json()) as { body: string }).body, "streamed");
    assert.equal(isReadWhole(response), false);
  });
});
