import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { SearxngProvider } from "./searxng";

// A SearXNG that answers with lone surrogates and NUL characters in titles and snippets (raw JSON escapes).
let server: http.Server;
let baseUrl: string;

before(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"results":[{"url":"https://example.com/a","title":"Grid \\ud800 storage","content":"Cheap \\udc00"},{"url":"https://example.com/b","title":"Grid\\u0000 storage","content":"\\u0000Cheap\\u0000"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("SearxngProvider", () => {
  it("replaces lone surrogates in titles and snippets, so that a result can always be stored", async () => {
    const [result] = await new SearxngProvider(baseUrl, { timeoutMs: 5_000, maxRetries: 0 }).search("grid", { limit: 5 });
    assert.equal(result.title, "Grid \ufffd storage");
    assert.equal(result.snippet, "Cheap \ufffd");
  });

  it("drops NUL characters from titles and snippets (PostgreSQL cannot store them)", async () => {
    const [, result] = await new SearxngProvider(baseUrl, { timeoutMs: 5_000, maxRetries: 0 }).search("grid", { limit: 5 });
    assert.equal(result.title, "Grid storage");
    assert.equal(result.snippet, "Cheap");
  });
});
