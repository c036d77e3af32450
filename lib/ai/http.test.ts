import { test } from "node:test";
import assert from "node:assert/strict";
import { createRetryingFetch } from "./http";

function scripted(statuses: Array<number | Error>, headers: Record<string, string> = {}) {
  const calls: number[] = [];
  const fetchImpl = (async () => {
    calls.push(Date.now());
    const next = statuses.shift() ?? 200;
    if (next instanceof Error) throw next;
    return new Response(next === 200 ? "{}" : "busy", { status: next, headers });
  }) as typeof fetch;
  return { fetchImpl, calls };
}

test("retries 429 and 5xx, then returns the success", async () => {
  const { fetchImpl, calls } = scripted([429, 503, 200]);
  const retries: Array<number | undefined> = [];
  const f = createRetryingFetch({ maxRetries: 3, baseDelayMs: 1, timeoutMs: 1000, fetchImpl, onRetry: (i) => retries.push(i.status) });
  const res = await f("http://llm.test/v1/chat/completions");
  assert.equal(res.status, 200);
  assert.equal(calls.length, 3);
  assert.deepEqual(retries, [429, 503]);
});

test("honours Retry-After", async () => {
  const { fetchImpl, calls } = scripted([429, 200], { "retry-after": "1" });
  const f = createRetryingFetch({ maxRetries: 2, baseDelayMs: 1, timeoutMs: 5000, fetchImpl });
  await f("http://llm.test/");
  assert.ok(calls[1] - calls[0] >= 950, `waited ${calls[1] - calls[0]} ms`);
});

test("gives up after maxRetries and returns the last error response", async () => {
  const { fetchImpl, calls } = scripted([500, 500, 500, 500]);
  const f = createRetryingFetch({ maxRetries: 2, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  assert.equal((await f("http://llm.test/")).status, 500);
  assert.equal(calls.length, 3);
});

test("does not retry a 400", async () => {
  const { fetchImpl, calls } = scripted([400]);
  const f = createRetryingFetch({ maxRetries: 3, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  assert.equal((await f("http://llm.test/")).status, 400);
  assert.equal(calls.length, 1);
});

test("retries network errors", async () => {
  const { fetchImpl, calls } = scripted([new TypeError("fetch failed"), 200]);
  const f = createRetryingFetch({ maxRetries: 1, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  assert.equal((await f("http://llm.test/")).status, 200);
  assert.equal(calls.length, 2);
});
