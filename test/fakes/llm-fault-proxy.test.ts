// Checks of the fault-injecting LLM proxy in front of the fake LLM: seeded shares, Retry-After, the
// outage window, slow responses, SSE passthrough, and usage counters against the fake LLM's own log.
// Run: node --import tsx --test test/fakes/llm-fault-proxy.test.ts
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import { startFakes, type Fakes, type LlmFaultProxy } from "./index";

let fakes: (Fakes & { faults: LlmFaultProxy }) | undefined;
const get = () => {
  if (!fakes) throw new Error("fakes not started");
  return fakes;
};

before(async () => {
  fakes = await startFakes({ faults: true });
});

after(async () => {
  await fakes?.stop();
});

const sys = (agent: string) => `You are Quarry's ${agent} agent.\nFollow the instructions.`;
const queryRequest = (n: number, extra: object = {}) => ({
  model: "fake-model",
  messages: [
    { role: "system", content: sys("query-generator") },
    { role: "user", content: `<prompt>\nHeat pumps in cold climates, request ${n}\n</prompt>\n<count>\n3\n</count>` },
  ],
  ...extra,
});
const chat = (body: object, init: RequestInit = {}) =>
  fetch(`${get().env.OPENAI_BASE_URL}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), ...init });

/** Sends until a 2xx, like a client with unlimited immediate retries; returns the attempts. */
async function untilOk(body: object): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const res = await chat(body);
    await res.arrayBuffer();
    if (res.ok) return attempt;
    assert.ok(attempt < 50, "never succeeded");
  }
}

describe("LLM fault proxy", () => {
  beforeEach(() => get().reset());

  test("env points the product at the proxy, which forwards to the fake LLM", async () => {
    const { env, faults, llm } = get();
    assert.equal(env.OPENAI_BASE_URL, faults.url);
    assert.notEqual(faults.url, llm.url);
    assert.match(faults.url, /\/v1$/);
    const res = await chat(queryRequest(1));
    assert.equal(res.status, 200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    assert.equal(JSON.parse(body.choices[0].message.content).queries.length, 3);
    assert.equal(llm.log.length, 1);
    assert.deepEqual(faults.counts(), { completed: 1 });
  });

  test("seeded 30% 429 + 10% 500: shares within tolerance, Retry-After present, same sequence after reset", async () => {
    const { faults, llm } = get();
    const run = async () => {
      get().reset();
      faults.configure({ seed: 7, rate429: 0.3, rate500: 0.1, retryAfterSeconds: 2 });
      const statuses: number[] = [];
      for (let i = 0; i < 400; i++) {
        const res = await chat(queryRequest(i));
        if (res.status === 429) {
          assert.equal(res.headers.get("retry-after"), "2");
          assert.equal(((await res.json()) as { error: { code: string } }).error.code, "rate_limit_exceeded");
        } else if (res.status === 500) {
          assert.equal(((await res.json()) as { error: { type: string } }).error.type, "server_error");
        } else {
          await res.arrayBuffer();
        }
        statuses.push(res.status);
      }
      return statuses;
    };
    const first = await run();
    const share = (status: number) => first.filter((s) => s === status).length / first.length;
    assert.ok(Math.abs(share(429) - 0.3) < 0.06, `429 share ${share(429)}`);
    assert.ok(Math.abs(share(500) - 0.1) < 0.04, `500 share ${share(500)}`);
    const stats = faults.stats();
    assert.equal(stats.injected429 + stats.injected500 + stats.forwarded, 400);
    assert.equal(stats.forwarded, llm.log.length, "only forwarded requests reach the upstream");
    assert.equal(stats.completed, first.filter((s) => s === 200).length);
    assert.deepEqual(await run(), first, "a fixed seed gives the same faults");
  });

  test("outage window: 503 while down, served again afterwards; reset mode drops the connection", async () => {
    const { faults, llm } = get();
    faults.down(300);
    assert.equal((await chat(queryRequest(1))).status, 503);
    assert.equal((await chat(queryRequest(2))).status, 503);
    assert.equal(llm.log.length, 0, "nothing reaches the upstream during the outage");
    await new Promise((r) => setTimeout(r, 350));
    assert.equal((await chat(queryRequest(3))).status, 200);

    // Out of process: POST /__down, and the status chosen through /__control.
    await fetch(`${faults.baseUrl}/__control`, { method: "POST", body: JSON.stringify({ outageStatus: 502 }) });
    assert.equal((await fetch(`${faults.baseUrl}/__down`, { method: "POST", body: JSON.stringify({ ms: 60_000 }) })).status, 200);
    assert.ok(faults.outageActive());
    assert.equal((await chat(queryRequest(4))).status, 502);
    faults.down(0);
    assert.equal((await chat(queryRequest(5))).status, 200);

    faults.configure({ outage: true, outageMode: "reset" });
    await assert.rejects(chat(queryRequest(6)), TypeError, "fetch fails: the connection is reset");
    faults.configure({ outage: false });
    assert.equal((await chat(queryRequest(7))).status, 200);
    assert.deepEqual(faults.counts(), { outage: 4, completed: 3 });
  });

  test("slow responses: the delay is added to the chosen share before forwarding", async () => {
    const { faults } = get();
    faults.configure({ slowMs: 150, slowShare: 0.5, seed: 3 });
    for (let i = 0; i < 12; i++) await (await chat(queryRequest(i))).arrayBuffer();
    const delayed = faults.log.filter((e) => e.delayMs === 150);
    assert.ok(delayed.length >= 2 && delayed.length <= 10, `${delayed.length} of 12 delayed`);
    for (const e of faults.log) assert.ok(e.endedAt! - e.at >= e.delayMs - 5, "a delayed request ends after its delay");

    faults.configure({ slowShare: 1 });
    const started = Date.now();
    assert.equal((await chat(queryRequest(99))).status, 200);
    assert.ok(Date.now() - started >= 145);
  });

  test("SSE passes through chunk by chunk, unchanged, with the final usage counted", async () => {
    const { faults, llm } = get();
    llm.configure({ latencyMs: 400 });
    const prompt = "<prompt>\nMicroplastics in tap water\n</prompt>\n<learnings>\n<source url=\"https://a.example/w\">\n- Tap water had 5 to 90 particles per litre.\n< /source>\n</learnings>";
    const res = await chat({
      model: "fake-model",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "system", content: sys("report-writer") }, { role: "user", content: prompt }],
    });
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const arrivals: number[] = [];
    let raw = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      arrivals.push(Date.now());
      raw += decoder.decode(chunk, { stream: true });
    }
    // The fake spends half its latency spreading the chunks: they must not arrive in one lump.
    assert.ok(arrivals.length > 10 && arrivals.at(-1)! - arrivals[0] >= 100, `${arrivals.length} chunks over ${arrivals.at(-1)! - arrivals[0]} ms`);
    const events = raw.split("\n\n").filter(Boolean);
    assert.equal(events.at(-1), "data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, "")) as { choices: { delta: { content?: string } }[]; usage: { prompt_tokens: number; completion_tokens: number } | null });
    const [upstream] = llm.log;
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""), upstream.reply, "the text is the upstream's, unchanged");
    assert.deepEqual(chunks.at(-1)!.usage, { prompt_tokens: upstream.promptTokens, completion_tokens: upstream.completionTokens, total_tokens: upstream.promptTokens + upstream.completionTokens });
    const [entry] = faults.log;
    assert.deepEqual(
      [entry.stream, entry.agent, entry.completed, entry.promptTokens, entry.completionTokens],
      [true, "report-writer", true, upstream.promptTokens, upstream.completionTokens],
    );

    // Through the AI SDK, as the product reads it.
    llm.configure({ latencyMs: 0 });
    const model = createOpenAI({ baseURL: get().env.OPENAI_BASE_URL, apiKey: "test" }).chat("fake-model");
    const streamed = streamText({ model, system: sys("report-writer"), prompt });
    const text = await streamed.text;
    const usage = await streamed.usage;
    assert.equal(text, llm.log[1].reply);
    assert.deepEqual([usage.inputTokens, usage.outputTokens], [faults.log[1].promptTokens, faults.log[1].completionTokens]);
  });

  test("usage counters equal the fake LLM's own log under faults; retries are counted as repeats", async () => {
    const { faults, llm } = get();
    faults.configure({ seed: 11, rate429: 0.3, rate500: 0.1, retryAfterSeconds: 0 });
    let attempts = 0;
    for (let i = 0; i < 30; i++) attempts += await untilOk(queryRequest(i, i % 2 ? { stream: true, stream_options: { include_usage: true } } : {}));
    // Through the AI SDK as well (its own retries: 429 and 500 are retryable).
    const model = createOpenAI({ baseURL: get().env.OPENAI_BASE_URL, apiKey: "test" }).chat("fake-model");
    const sdk = await generateText({ model, system: sys("query-generator"), prompt: "<count>\n2\n</count>", maxRetries: 10 });
    assert.ok(sdk.text.length > 0);

    const stats = faults.stats();
    const served = llm.log.filter((e) => e.status === 200);
    assert.equal(stats.usage.completions, served.length);
    assert.equal(stats.usage.promptTokens, served.reduce((n, e) => n + e.promptTokens, 0));
    assert.equal(stats.usage.completionTokens, served.reduce((n, e) => n + e.completionTokens, 0));
    assert.equal(stats.usage.completions, 31);
    assert.equal(stats.duplicateCompletions, 0, "each request completed once");
    assert.ok(stats.injected429 > 0 && stats.injected500 > 0);
    assert.equal(stats.requests - 31, stats.repeats, "every failed attempt was retried with the same body");
    assert.ok(attempts >= 30);

    // The same request completed twice is work done twice.
    await untilOk(queryRequest(0));
    assert.equal(faults.stats().duplicateCompletions, 1);

    // Out of process: GET /__stats, GET /__log, POST /__reset.
    const overHttp = (await (await fetch(`${faults.baseUrl}/__stats`)).json()) as typeof stats;
    assert.equal(overHttp.usage.completions, 32);
    const log = (await (await fetch(`${faults.baseUrl}/__log`)).json()) as { counts: Record<string, number> };
    assert.equal(log.counts.completed, 32);
    await fetch(`${faults.baseUrl}/__reset`, { method: "POST" });
    assert.equal(faults.stats().requests, 0);
    assert.equal(faults.currentOptions().rate429, 0);
  });

  test("the upstream down: 502 from the proxy", async () => {
    const { faults } = get();
    faults.configure({ upstream: "http://127.0.0.1:9/v1" });
    const res = await chat(queryRequest(1));
    assert.equal(res.status, 502);
    assert.equal(faults.log[0].aborted, true);
  });
});
