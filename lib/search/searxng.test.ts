import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { AdaptiveLimit } from "../adaptive-limit";
import { Semaphore } from "../concurrency";
import { SearxngProvider } from "./searxng";

// A SearXNG that answers with lone surrogates and NUL characters in titles and snippets (raw JSON escapes).
let server: http.Server;
let baseUrl: string;
/** Requests still to answer with 429 (Retry-After: 0). */
let rateLimitNext = 0;

before(async () => {
  server = http.createServer((_req, res) => {
    if (rateLimitNext > 0) {
      rateLimitNext--;
      res.writeHead(429, { "retry-after": "0" });
      res.end();
      return;
    }
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

  it("lowers the search limit on a 429 and raises it back, one step per run of answers, to the configured ceiling", async () => {
    const limiter = new Semaphore(10);
    const provider = new SearxngProvider(baseUrl, { timeoutMs: 5_000, maxRetries: 2, adaptive: new AdaptiveLimit(limiter, 10) });
    rateLimitNext = 1;
    assert.equal((await provider.search("grid", { limit: 5 })).length, 2, "the retry after the 429 is answered");
    assert.equal(limiter.limit, 7, "one 429: ×0.7");
    // The retry's answer was the first success at 7; six more make a run of 7 and raise the limit by one.
    for (let i = 0; i < 6; i++) await provider.search("grid", { limit: 5 });
    assert.equal(limiter.limit, 8);
    for (let i = 0; i < 8 + 9; i++) await provider.search("grid", { limit: 5 });
    assert.equal(limiter.limit, 10);
    for (let i = 0; i < 20; i++) await provider.search("grid", { limit: 5 });
    assert.equal(limiter.limit, 10, "never above SEARCH_CONCURRENCY");
  });
});
