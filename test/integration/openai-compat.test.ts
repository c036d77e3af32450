// Quarry as an OpenAI-compatible model: /v1/chat/completions and /v1/models through the AI SDK's
// OpenAI provider (as a real client uses it) and raw fetch (the exact chunk format), against the fakes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { getAnswer } from "../helpers/answer";

const QUESTION = "How much storage did grid batteries add in 2024?";

describe("OpenAI-compatible API", () => {
  let fakes: Fakes;
  let app: TestApp;
  let client: ReturnType<typeof createOpenAI>;
  before(async () => {
    fakes = await startFakes({ search: { failingPageShare: 0 } });
    app = await TestApp.start({ name: "openai", env: { ...fakes.env } });
    client = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: app.user.token });
  });
  after(async () => {
    await app?.stop();
    await fakes?.stop();
  });

  const chat = (body: Record<string, unknown>) => app.postJson("/v1/chat/completions", { model: "quarry-answer", messages: [{ role: "user", content: QUESTION }], ...body });

  test("the AI SDK's OpenAI provider, non-streaming: the answer as text, references as sources, usage", async () => {
    const result = await generateText({ model: client.chat("quarry-answer"), prompt: QUESTION });
    assert.ok(result.text.length > 30, result.text);
    const urls = result.sources.map((s) => (s.sourceType === "url" ? s.url : ""));
    assert.equal(urls.length, 1);
    assert.ok(urls[0].startsWith(fakes.web.baseUrl));
    assert.ok((result.usage.totalTokens ?? 0) > 0);
  });

  test("the AI SDK's OpenAI provider, streaming: the same, piece by piece", async () => {
    const result = streamText({ model: client.chat("quarry-answer"), prompt: QUESTION });
    const text = await result.text;
    assert.ok(text.length > 30, text);
    assert.equal((await result.sources).length, 1);
    assert.equal(await result.finishReason, "stop");
    assert.ok(((await result.usage).totalTokens ?? 0) > 0);
  });

  test("the chunk format is OpenAI's: role first, reasoning_content per step, content, annotations, usage (asked for) alone last, then [DONE]", async () => {
    const res = await chat({ stream: true, stream_options: { include_usage: true } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const raw = await res.text();
    const frames = raw.split("\n\n").filter(Boolean);
    assert.equal(frames.at(-1), "data: [DONE]");
    const chunks = frames.slice(0, -1).map((f) => {
      assert.match(f, /^data: \{/);
      return JSON.parse(f.slice(6)) as { id: string; object: string; model: string; created: number; choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: Record<string, number> | null };
    });
    const usageChunk = chunks.pop()!;
    assert.deepEqual(usageChunk.choices, []);
    const ids = new Set(chunks.map((c) => c.id));
    assert.equal(ids.size, 1);
    assert.ok(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "quarry-answer" && Number.isInteger(c.created)));
    assert.deepEqual(chunks[0].choices[0].delta, { role: "assistant", content: "" });
    const reasoning = chunks.filter((c) => "reasoning_content" in c.choices[0].delta);
    assert.equal(reasoning.length, 3, "one per step: search, visit, answer");
    assert.match(String(reasoning[0].choices[0].delta.reasoning_content), /Searching: /);
    const content = chunks.filter((c) => typeof c.choices[0].delta.content === "string" && c.choices[0].delta.content !== "");
    assert.equal(content.length, 1);
    const last = chunks.at(-1)!;
    assert.equal(last.choices[0].finish_reason, "stop");
    const annotations = last.choices[0].delta.annotations as { type: string; url_citation: { url: string; title: string; exactQuote: string; start_index: number; end_index: number } }[];
    assert.equal(annotations.length, 1);
    assert.equal(annotations[0].type, "url_citation");
    assert.ok(annotations[0].url_citation.exactQuote.length > 20);
    assert.equal(last.usage, null);
    const usage = usageChunk.usage!;
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    const stored = await getAnswer(app, res.headers.get("x-request-id")!);
    assert.equal(usage.total_tokens, stored.usage.totalTokens);
    assert.equal(annotations[0].url_citation.exactQuote, stored.references[0].exactQuote);
  });

  test("non-streaming: one chat.completion with the answer, the reasoning, annotations and usage", async () => {
    const res = await chat({});
    assert.equal(res.status, 200);
    const body = (await res.json()) as { object: string; choices: { message: { role: string; content: string; reasoning_content: string; annotations: unknown[] }; finish_reason: string }[]; usage: { total_tokens: number } };
    assert.equal(body.object, "chat.completion");
    assert.equal(body.choices[0].message.role, "assistant");
    assert.equal(body.choices[0].finish_reason, "stop");
    assert.match(body.choices[0].message.reasoning_content, /\[step 1\]/);
    assert.equal(body.choices[0].message.annotations.length, 1);
    assert.ok(body.usage.total_tokens > 0);
  });

  test("the last user message is the question; reasoning_effort and budget_tokens set the budget, max_completion_tokens does not", async () => {
    const messages = [
      { role: "user", content: "Tell me about batteries." },
      { role: "assistant", content: "Sure." },
      { role: "user", content: [{ type: "text", text: "What is 1+1=?" }] },
    ];
    const low = await chat({ messages, reasoning_effort: "low" });
    const stored = await getAnswer(app, low.headers.get("x-request-id")!);
    assert.equal(stored.usage.budget, 100_000);
    assert.equal(((await low.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content, "2");
    const capped = await chat({ messages, reasoning_effort: "high", budget_tokens: 20_000 });
    assert.equal((await getAnswer(app, capped.headers.get("x-request-id")!)).usage.budget, 20_000);
    const limited = await chat({ messages, reasoning_effort: "high", max_completion_tokens: 20_000 });
    assert.equal((await getAnswer(app, limited.headers.get("x-request-id")!)).usage.budget, 1_000_000);
    const high = await chat({ messages, reasoning_effort: "high" });
    assert.equal((await getAnswer(app, high.headers.get("x-request-id")!)).usage.budget, 1_000_000);
  });

  test("errors are OpenAI-shaped with the right status", async () => {
    const cases: [Promise<Response>, number, string | null, string][] = [
      [chat({ model: "gpt-4o" }), 404, "model", "model_not_found"],
      [chat({ messages: [] }), 400, "messages", "bad_request_chat"],
      [chat({ messages: [{ role: "system", content: "Only a system message" }] }), 400, "messages", "bad_request_messages"],
      [chat({ reasoning_effort: "extreme" }), 400, "reasoning_effort", "bad_request_chat"],
      [chat({ max_completion_tokens: -1 }), 400, "max_completion_tokens", "bad_request_chat"],
      [app.fetch("/v1/chat/completions"), 405, null, "method_not_allowed_api"],
      [app.fetch("/v1/embeddings", { method: "POST" }), 404, null, "not_found_api"],
    ];
    for (const [pending, status, param, code] of cases) {
      const res = await pending;
      assert.equal(res.status, status, `${status} ${code}`);
      const body = (await res.json()) as { error: { message: string; type: string; param: string | null; code: string } };
      assert.equal(typeof body.error.message, "string");
      assert.equal(typeof body.error.type, "string");
      assert.equal(body.error.param, param);
      assert.equal(body.error.code, code);
    }
  });

  test("GET /v1/models lists the answer model and the plain chat model", async () => {
    const res = await app.fetch("/v1/models");
    assert.equal(res.status, 200);
    const body = (await res.json()) as { object: string; data: { id: string; object: string }[] };
    assert.equal(body.object, "list");
    assert.deepEqual(body.data.map((m) => [m.id, m.object]), [["quarry-answer", "model"], ["quarry-chat", "model"]]);
  });

  test("over the per-user limit of running answers: 429, OpenAI-shaped on /v1", async () => {
    const limited = await TestApp.start({ name: "openai-limits", env: { ...fakes.env, MAX_CONCURRENT_RUNS_PER_USER: "1" } });
    fakes.llm.configure({ latencyMs: 300 });
    try {
      const first = await limited.postJson("/api/v1/query", { q: "An endless question about batteries" });
      assert.equal(first.status, 202);
      const { requestId } = (await first.json()) as { requestId: string };
      const second = await limited.postJson("/api/v1/query", { q: "What is 1+1=?" });
      assert.equal(second.status, 429);
      assert.equal(((await second.json()) as { code: string }).code, "rate_limit:concurrent_runs");
      const chatRes = await limited.postJson("/v1/chat/completions", { model: "quarry-answer", messages: [{ role: "user", content: "What is 1+1=?" }] });
      assert.equal(chatRes.status, 429);
      assert.equal(((await chatRes.json()) as { error: { type: string } }).error.type, "rate_limit_error");
      assert.equal((await limited.postJson(`/api/v1/answers/${requestId}/cancel`, {})).status, 200);
      assert.equal((await limited.postJson("/api/v1/query", { q: "What is 1+1=?" })).status, 202);
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
      await limited.stop();
    }
  });
});
