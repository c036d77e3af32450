import { test } from "node:test";
import assert from "node:assert/strict";
import { Semaphore } from "../concurrency";
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
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl, onRetry: (i) => retries.push(i.status) });
  const res = await f("http://llm.test/v1/chat/completions");
  assert.equal(res.status, 200);
  assert.equal(calls.length, 3);
  assert.deepEqual(retries, [429, 503]);
});

test("retries a gateway's and a provider's \"later\": Cloudflare's 520–524 before a self-hosted server, Anthropic's 529 overloaded", async () => {
  const { fetchImpl, calls } = scripted([524, 529, 520, 200]);
  const retries: Array<number | undefined> = [];
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl, onRetry: (i) => retries.push(i.status) });
  assert.equal((await f("http://llm.test/v1/chat/completions")).status, 200);
  assert.equal(calls.length, 4);
  assert.deepEqual(retries, [524, 529, 520]);
});

test("honours Retry-After", async () => {
  const { fetchImpl, calls } = scripted([429, 200], { "retry-after": "1" });
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 5000, fetchImpl });
  await f("http://llm.test/");
  assert.ok(calls[1] - calls[0] >= 950, `waited ${calls[1] - calls[0]} ms`);
});

test("retries within a time budget, not a fixed count, then returns the last error response", async () => {
  const { fetchImpl, calls } = scripted(Array(50).fill(500));
  const f = createRetryingFetch({ retryBudgetMs: 150, baseDelayMs: 5, maxDelayMs: 10, timeoutMs: 1000, fetchImpl });
  const started = Date.now();
  assert.equal((await f("http://llm.test/")).status, 500);
  assert.ok(Date.now() - started >= 150, "kept retrying for the whole budget");
  assert.ok(calls.length > 5, `retried ${calls.length - 1} times`);
});

test("does not retry a 400", async () => {
  const { fetchImpl, calls } = scripted([400]);
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  assert.equal((await f("http://llm.test/")).status, 400);
  assert.equal(calls.length, 1);
});

test("retries network errors", async () => {
  const { fetchImpl, calls } = scripted([new TypeError("fetch failed"), 200]);
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  assert.equal((await f("http://llm.test/")).status, 200);
  assert.equal(calls.length, 2);
});

test("a limiter slot covers one HTTP exchange: taken when the request goes out, freed when its body is read", async () => {
  const limiter = new Semaphore(1);
  const f = createRetryingFetch({ retryBudgetMs: 10_000, timeoutMs: 1000, limiter, fetchImpl: (async () => new Response("reply body")) as typeof fetch });
  const res = await f("http://llm.test/v1/chat/completions");
  assert.equal(limiter.inUse, 1, "held while the body is unread");
  assert.equal(await res.text(), "reply body");
  assert.equal(limiter.inUse, 0);
  await (await f("http://llm.test/v1/chat/completions")).body!.cancel();
  assert.equal(limiter.inUse, 0, "a cancelled body frees its slot");
});

test("back-off waits hold no slot, and a failed request frees its own", async () => {
  const limiter = new Semaphore(1);
  const { fetchImpl } = scripted([new Error("connection reset"), 503, 200]);
  let inUseDuringBackoff = -1;
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 20, timeoutMs: 1000, limiter, fetchImpl, onRetry: () => queueMicrotask(() => (inUseDuringBackoff = limiter.inUse)) });
  const res = await f("http://llm.test/v1/chat/completions");
  await res.text();
  assert.equal(inUseDuringBackoff, 0);
  assert.equal(limiter.inUse, 0);
});

test("requests wait for a slot in the lane and at the priority of their fetch's schedule", async () => {
  const limiter = new Semaphore(1);
  const order: string[] = [];
  const fetchImpl = (async (input: string | URL | Request) => {
    order.push(new URL(String(input)).pathname);
    return new Response("{}");
  }) as typeof fetch;
  const scheduled = (priority: number) => createRetryingFetch({ retryBudgetMs: 10_000, timeoutMs: 1000, limiter, fetchImpl, schedule: { lane: "run", priority } });
  const held = await limiter.acquire();
  const low = scheduled(1)("http://llm.test/leaf").then((r) => r.text());
  const high = scheduled(30)("http://llm.test/root").then((r) => r.text());
  held();
  await Promise.all([low, high]);
  assert.deepEqual(order, ["/root", "/leaf"]);
});

test("a retry goes out only while its work is still this process's: a lock lost during the backoff stops it", async () => {
  const { withOwnership } = await import("../ownership");
  const { fetchImpl, calls } = scripted([503, 200]);
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  let held = true;
  const lost = new Error("Job node-q1 lost its lock");
  const call = withOwnership(() => {
    if (!held) throw lost;
  }, () => f("http://llm.test/v1/chat/completions", { method: "POST", body: "{}" }));
  // The lock is lost after the first attempt went out, before its retry.
  while (calls.length === 0) await new Promise((r) => setImmediate(r));
  held = false;
  await assert.rejects(call, lost);
  assert.equal(calls.length, 1, "the retry was not sent");
});

test("an attempt times out after the server goes quiet, not after a fixed time: a stream that keeps sending is read whole", async () => {
  const http = await import("node:http");
  // Every 40 ms a piece, for 300 ms ("steady"); or one piece, then silence ("stalls").
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    let n = 0;
    const tick = setInterval(() => {
      res.write(`data: ${n++}\n\n`);
      if (req.url === "/stalls") return clearInterval(tick);
      if (n < 8) return;
      clearInterval(tick);
      res.end();
    }, 40);
    res.on("close", () => clearInterval(tick));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}`;
  try {
    const f = createRetryingFetch({ retryBudgetMs: 0, timeoutMs: 150 });
    const steady = await (await f(`${base}/steady`)).text();
    assert.equal(steady.match(/data: /g)?.length, 8, "320 ms of pieces, none 150 ms apart, all read");
    const stalls = await f(`${base}/stalls`);
    await assert.rejects(stalls.text(), (error: Error) => error.name === "TimeoutError" || /sent nothing/.test(String(error.cause ?? error.message)));
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("a server that refuses stream_options is sent the request again without it, and every later one too; other 400s are the caller's", async () => {
  const bodies: string[] = [];
  const fetchImpl = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = String(init?.body ?? "");
    bodies.push(body);
    if (body.includes("stream_options")) return new Response(JSON.stringify({ error: { message: "Unrecognized request argument supplied: stream_options" } }), { status: 400 });
    if (body.includes("bad")) return new Response(JSON.stringify({ error: { message: "max_tokens is too large" } }), { status: 400 });
    return new Response("{}", { status: 200 });
  }) as typeof fetch;
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  const url = "http://llm-refusing.test/v1/chat/completions";
  const request = (extra: object) => f(url, { method: "POST", body: JSON.stringify({ model: "m", stream: true, stream_options: { include_usage: true }, ...extra }) });
  assert.equal((await request({})).status, 200);
  assert.equal((await request({ n: 2 })).status, 200);
  assert.deepEqual(bodies.map((b) => JSON.parse(b) as object), [
    { model: "m", stream: true, stream_options: { include_usage: true } },
    { model: "m", stream: true },
    { model: "m", stream: true, n: 2 },
  ]);
  assert.equal((await request({ bad: true })).status, 400);
  // Another server is asked as it was.
  await f("http://llm-other.test/v1/chat/completions", { method: "POST", body: JSON.stringify({ stream_options: {} }) });
  assert.ok(bodies.at(-2)!.includes("stream_options"));
});

test("a reasoning model's refusals (OpenAI's o-series under a deployment's name): max_tokens is sent as max_completion_tokens, a sampling setting left out, for that server and model only", async () => {
  const bodies: Record<string, unknown>[] = [];
  const openAiError = (message: string, param: string, code: string) => new Response(JSON.stringify({ error: { message, type: "invalid_request_error", param, code } }), { status: 400 });
  const fetchImpl = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? "{}")) as Record<string, unknown>;
    bodies.push(body);
    if (body.model !== "my-o3") return new Response("{}", { status: 200 });
    if ("max_tokens" in body) return openAiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter");
    if (typeof body.temperature === "number" && body.temperature !== 1) return openAiError(`Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, "temperature", "unsupported_value");
    if ("top_p" in body) return openAiError("Unsupported parameter: 'top_p' is not supported with this model.", "top_p", "unsupported_parameter");
    if ((body.max_completion_tokens as number) > 50_000) return openAiError("max_completion_tokens is too large: 60000. This model supports at most 50000 completion tokens.", "max_completion_tokens", "invalid_value");
    return new Response("{}", { status: 200 });
  }) as typeof fetch;
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl });
  const url = "http://llm-reasoning.test/v1/chat/completions";
  const request = (body: object) => f(url, { method: "POST", body: JSON.stringify(body) });
  assert.equal((await request({ model: "my-o3", max_tokens: 500, temperature: 0.3, top_p: 0.9 })).status, 200);
  assert.deepEqual(bodies.at(-1), { model: "my-o3", max_completion_tokens: 500 }, "the limit kept under its other name, the sampling left out");
  assert.equal(bodies.length, 4, "one refusal per parameter");
  // Every later request is adapted before it goes: no refusal more.
  assert.equal((await request({ model: "my-o3", max_tokens: 700, temperature: 0.5 })).status, 200);
  assert.equal(bodies.length, 5);
  assert.deepEqual(bodies.at(-1), { model: "my-o3", max_completion_tokens: 700 });
  // A 400 that names a parameter without saying it is unsupported is the caller's.
  assert.equal((await request({ model: "my-o3", max_tokens: 60_000 })).status, 400);
  assert.equal(bodies.length, 6);
  // Another model on the same server is asked as it was.
  assert.equal((await request({ model: "gpt-4o", max_tokens: 500, temperature: 0.3 })).status, 200);
  assert.deepEqual(bodies.at(-1), { model: "gpt-4o", max_tokens: 500, temperature: 0.3 });
});

test("an error sent with HTTP 200 (OpenRouter's upstream failures), whole or as a stream's first event, is that HTTP error: retried, or handed on with its status", async () => {
  const providerError = (code: number | string) => JSON.stringify({ error: { message: "Provider returned error", code, metadata: { provider_name: "Upstream" } } });
  const sse = (...events: string[]) => new Response(events.join(""), { status: 200, headers: { "content-type": "text/event-stream" } });
  const chunk = JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "Hello" }, finish_reason: null }] });
  const replies: (() => Response)[] = [
    () => new Response(providerError(502), { status: 200, headers: { "content-type": "application/json" } }),
    () => sse(": OPENROUTER PROCESSING\n\n", `data: ${providerError(429)}\n\n`),
    () => sse(": OPENROUTER PROCESSING\n\n", `data: ${chunk}\n\n`, "data: [DONE]\n\n"),
  ];
  let calls = 0;
  const fetchImpl = (async () => replies[calls++]()) as typeof fetch;
  const retries: (number | undefined)[] = [];
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 1000, fetchImpl, onRetry: (r) => retries.push(r.status) });
  const response = await f("http://llm-router.test/v1/chat/completions", { method: "POST", body: "{}" });
  assert.equal(response.status, 200);
  assert.deepEqual(retries, [502, 429], "each error retried as the status it reports");
  assert.equal(await response.text(), `: OPENROUTER PROCESSING\n\ndata: ${chunk}\n\ndata: [DONE]\n\n`, "a stream read ahead is given back whole");

  // One that reports a client error is handed on as that error, its message kept.
  const refusing = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl: (async () => new Response(providerError(400), { status: 200 })) as typeof fetch });
  const refused = await refusing("http://llm-router.test/v1/chat/completions", { method: "POST", body: "{}" });
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /Provider returned error/);
  // A reply that merely mentions "error" is a reply.
  const fine = JSON.stringify({ choices: [{ message: { content: 'The "error" was small.' } }], error: null });
  const plain = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 1000, fetchImpl: (async () => new Response(fine, { status: 200 })) as typeof fetch });
  assert.equal(await (await plain("http://llm-router.test/v1/chat/completions", { method: "POST", body: "{}" })).text(), fine);
});

test("an attempt that timed out without a byte lowers the shared limit: the server's queue is longer than it serves in time", async () => {
  const { ProviderHealth } = await import("./provider-health");
  const limiter = new Semaphore(10);
  const health = new ProviderHealth(limiter, { maxLimit: 10, outageAfterMs: 60_000 });
  let calls = 0;
  const fetchImpl = ((_url: string, init?: RequestInit) => {
    calls++;
    // The first waits in the server's queue until the attempt times out; the second is answered.
    if (calls === 1) return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    return Promise.resolve(new Response("{}", { status: 200 }));
  }) as typeof fetch;
  const f = createRetryingFetch({ retryBudgetMs: 10_000, baseDelayMs: 1, timeoutMs: 50, fetchImpl, limiter, health });
  assert.equal((await f("http://llm.test/v1/chat/completions")).status, 200);
  assert.equal(calls, 2);
  assert.equal(limiter.limit, 7);
});
