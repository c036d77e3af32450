// What chat clients send to /v1/chat/completions, through the official `openai` client where it can
// say it: background tasks (a chat UI's title request) answered with one plain call, the answer's
// parameters honoured (max_tokens, budget_tokens, hostnames, response_format, include_usage,
// temperature), what cannot be honoured refused by name, and errors that say whether to retry
// (4xx not retried by the client, Retry-After, x-request-id, a retry joining its run).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";

const QUESTION = "How much storage did grid batteries add in 2024?";
const MODEL = "quarry-answer";

type Chunk = { id: string; choices: { delta: { content?: string; reasoning_content?: string }; finish_reason: string | null }[]; usage?: { total_tokens: number } | null };

describe("chat clients' parameters and errors", () => {
  let fakes: Fakes;
  let app: TestApp;
  let client: OpenAI;
  /** Requests the official client sent (its retries included). */
  let sent = 0;
  before(async () => {
    fakes = await startFakes({ search: { failingPageShare: 0 } });
    app = await TestApp.start({ name: "openai-params", env: { ...fakes.env } });
    const counting: typeof fetch = (input, init) => {
      sent++;
      return fetch(input, init);
    };
    // Short retry waits: a retry the client makes shows in the count without slowing the test.
    client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: app.user.token, fetch: counting, maxRetries: 2, timeout: 120_000 });
  });
  after(async () => {
    await app?.stop();
    await fakes?.stop();
  });

  const runCount = async () => {
    const res = await app.fetch("/api/v1/answers?limit=100");
    assert.equal(res.status, 200);
    return ((await res.json()) as { answers: unknown[] }).answers.length;
  };
  const chat = (body: Record<string, unknown>, init: RequestInit = {}) => app.postJson("/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: QUESTION }], ...body }, init);
  const rawChunks = async (res: Response) => {
    const frames = (await res.text()).split("\n\n").filter((f) => f.startsWith("data: "));
    assert.equal(frames.at(-1), "data: [DONE]");
    return frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)) as Chunk);
  };

  test("an Open WebUI-style title request is one plain LLM call, in the format asked, with usage; no run, no start", async () => {
    const runs = await runCount();
    fakes.reset();
    const r = await client.chat.completions.create({
      model: MODEL,
      stream: false,
      max_tokens: 1000,
      messages: [
        {
          role: "user",
          content:
            '### Task:\nGenerate a concise, 3-5 word title with an emoji summarizing the chat history.\n### Output:\nJSON format: { "title": "your concise title here" }\n### Chat History:\n<chat_history>\nUSER: How much storage did grid batteries add in 2024?\nASSISTANT: About 69 GW worldwide.\n</chat_history>',
        },
      ],
    });
    assert.equal(fakes.llm.calls(), 1, "exactly one LLM call");
    assert.equal(fakes.search.log.length, 0);
    assert.ok(r.choices[0].message.content!.length > 0);
    assert.ok(r.usage!.total_tokens > 0);
    assert.equal(r.usage!.total_tokens, fakes.llm.log[0].promptTokens + fakes.llm.log[0].completionTokens);
    assert.equal(await runCount(), runs, "no run row");

    // Tags in no client's known template: one small classification call says housekeeping, then one plain call, JSON back.
    fakes.reset();
    const tags = await client.chat.completions.create({
      model: MODEL,
      response_format: { type: "json_object" },
      temperature: 0.1,
      messages: [
        { role: "system", content: "Generate 1-3 broad tags categorizing the chat. Reply in JSON." },
        { role: "user", content: "USER: How much storage did grid batteries add in 2024?" },
      ],
    });
    assert.deepEqual(fakes.llm.log.map((e) => e.agent), ["chat-classifier", "unknown"]);
    assert.equal(typeof JSON.parse(tags.choices[0].message.content!), "object");
    assert.equal(fakes.llm.log[1].response_format_name, "json_object");
    assert.equal(fakes.llm.log[1].temperature, 0.1);
    assert.equal(tags.usage!.total_tokens, fakes.llm.log.reduce((n, e) => n + e.promptTokens + e.completionTokens, 0), "the classification's tokens are in the usage");
    assert.equal(await runCount(), runs);
  });

  test("max_tokens limits the answer, not the research: max_tokens 50 is a short answer after a full research, temperature and top_p reach the final answer", async () => {
    fakes.reset();
    const r = await client.chat.completions.create({ model: MODEL, max_tokens: 50, temperature: 0.3, top_p: 0.9, messages: [{ role: "user", content: QUESTION }] });
    const content = r.choices[0].message.content!;
    assert.ok(content.length > 0 && content.length <= 200, `at most about 50 tokens: ${content}`);
    assert.ok(fakes.web.log.length > 0, "pages were read: the research ran");
    const final = fakes.llm.log.filter((e) => e.agent === "answer-final");
    assert.equal(final.length, 1);
    assert.deepEqual([final[0].maxTokens, final[0].temperature, final[0].topP], [50, 0.3, 0.9]);
    // Without them the research's answer goes out as it is: no extra call.
    fakes.reset();
    await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: QUESTION }] });
    assert.equal(fakes.llm.calls("answer-final"), 0);
  });

  test("budget_tokens is the research budget and max_attempts the bad attempts allowed", async () => {
    const res = await chat({ budget_tokens: 40_000, max_attempts: 4 });
    assert.equal(res.status, 200);
    const stored = (await (await app.fetch(`/api/v1/answers/${res.headers.get("x-request-id")}`)).json()) as { budget: number; maxBadAttempt: number };
    assert.deepEqual([stored.budget, stored.maxBadAttempt], [40_000, 4]);
  });

  test("bad_hostnames: a listed host is never read; only_hostnames restricts searching and reading", async () => {
    fakes.reset();
    const bad = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: QUESTION }], budget_tokens: 60_000, bad_hostnames: ["127.0.0.1"] } as never);
    assert.ok(fakes.search.log.length > 0, "it searched");
    assert.equal(fakes.web.log.length, 0, "nothing read from 127.0.0.1");
    assert.equal((bad.choices[0].message as unknown as { annotations: unknown[] }).annotations.length, 0);

    fakes.reset();
    await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: QUESTION }], budget_tokens: 60_000, only_hostnames: ["example.org"] } as never);
    assert.equal(fakes.web.log.length, 0, "only example.org may be read");

    fakes.reset();
    const only = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: QUESTION }], only_hostnames: ["127.0.0.1"] } as never);
    assert.ok(fakes.web.log.length > 0, "the allowed host is read");
    assert.equal((only.choices[0].message as unknown as { annotations: unknown[] }).annotations.length, 1);
  });

  test("no_direct_answer: even a trivial question is looked up first", async () => {
    fakes.reset();
    const direct = await chat({ messages: [{ role: "user", content: "What is 1+1=?" }] });
    assert.equal(((await direct.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content, "2");
    assert.equal(fakes.search.log.length, 0);
    fakes.reset();
    const looked = await chat({ messages: [{ role: "user", content: "What is 1+1=?" }], no_direct_answer: true, budget_tokens: 60_000 });
    assert.equal(looked.status, 200);
    assert.ok(fakes.search.log.length > 0, "the first step searched");
  });

  test("response_format json_schema shapes the research's final answer", async () => {
    const r = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
      response_format: { type: "json_schema", json_schema: { name: "fact", schema: { type: "object", properties: { answer: { type: "string" }, year: { type: "integer" } }, required: ["answer", "year"] } } },
    });
    const parsed = JSON.parse(r.choices[0].message.content!) as { answer: unknown; year: unknown };
    assert.equal(typeof parsed.answer, "string");
    assert.equal(typeof parsed.year, "number");
  });

  test("stream_options.include_usage: usage only when asked, as OpenAI sends it (a last chunk with no choices)", async () => {
    const without = await rawChunks(await chat({ stream: true }));
    assert.ok(without.every((c) => !("usage" in c)), "no usage unless asked");
    const withUsage = await rawChunks(await chat({ stream: true, stream_options: { include_usage: true } }));
    const last = withUsage.at(-1)!;
    assert.deepEqual(last.choices, []);
    assert.ok(last.usage!.total_tokens > 0);
    assert.ok(withUsage.slice(0, -1).every((c) => c.usage === null && c.choices.length === 1));
    assert.equal(withUsage.filter((c) => c.usage).length, 1, "counted once");

    // The official client sees it the same way.
    const stream = await client.chat.completions.create({ model: MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: QUESTION }] });
    let usages = 0;
    for await (const c of stream) if (c.usage) usages++;
    assert.equal(usages, 1);
  });

  test("what cannot be honoured is a 400 naming the parameter, and the client does not retry it", async () => {
    const refused = async (params: Record<string, unknown>, param: string, message: RegExp) => {
      sent = 0;
      await assert.rejects(
        client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: QUESTION }], ...params } as never),
        (e: unknown) => e instanceof OpenAI.BadRequestError && e.param === param && message.test(e.message),
      );
      assert.equal(sent, 1, `${param}: not retried`);
    };
    const runs = await runCount();
    await refused({ n: 2 }, "n", /n must be 1/);
    await refused({ tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }] }, "tools", /tools are not supported/);
    await refused({ tool_choice: "required" }, "tool_choice", /tool_choice/);
    await refused(
      { messages: [{ role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] }] },
      "messages.0.content",
      /Images are not supported/,
    );
    // The question's limit is /api/v1/query's: 10,000 characters.
    await refused({ messages: [{ role: "user", content: `${QUESTION} ${"x".repeat(10_000)}` }] }, "messages", /10,000 characters/);
    await refused({ budget_tokens: 500 }, "budget_tokens", /at least/);
    assert.equal(await runCount(), runs, "none of them started a run");
  });

  test("a budget too small for the final answer is a 400 naming budget_tokens, not a retryable 503", async () => {
    sent = 0;
    await assert.rejects(
      // A long question: its prompt alone leaves 2,000 tokens no room for a step or a final answer.
      client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: `${QUESTION} ${"Details about the storage market. ".repeat(250)}` }], budget_tokens: 2_000 } as never),
      (e: unknown) => e instanceof OpenAI.BadRequestError && e.param === "budget_tokens" && /too small/.test(e.message),
    );
    assert.equal(sent, 1, "not retried");
  });

  test("every response has an x-request-id; errors are no exception", async () => {
    for (const res of [await chat({ n: 3 }), await chat({ model: "gpt-4o" }), await app.fetch("/v1/chat/completions"), await app.fetch("/api/v1/answers/nope"), await app.postJson("/api/v1/query", {})]) {
      assert.match(res.headers.get("x-request-id") ?? "", /^[\w.:-]{8,}$/, `${res.url} ${res.status}`);
    }
  });

  test("responses made outside the answer routes have an x-request-id too: the proxy's 400 and 401, a preflight, 404s, 405s, Auth.js", async () => {
    const raw = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, { redirect: "manual", ...init });
    const cases: [string, Response, number][] = [
      ["signed out /v1", await raw("/v1/models"), 401],
      ["signed out /api", await raw("/api/research"), 401],
      ["malformed /v1 path", await raw("/v1/models/%ff"), 400],
      ["malformed /api path", await raw("/api/research/%ff"), 400],
      ["NUL in a query parameter", await app.fetch("/api/v1/answers?limit=%00"), 400],
      ["unknown /v1 path", await app.fetch("/v1/nothing/here"), 404],
      ["unknown /api path", await app.fetch("/api/nothing/here"), 404],
      ["/v1 itself", await app.fetch("/v1"), 404],
      ["/api itself", await app.fetch("/api"), 404],
      ["a method a route does not take", await app.fetch("/v1/models", { method: "DELETE" }), 405],
      ["Auth.js", await raw("/api/auth/session"), 200],
      ["Auth.js, another method", await raw("/api/auth/session", { method: "PUT" }), 405],
      ["preflight", await raw("/v1/chat/completions", { method: "OPTIONS", headers: { origin: "https://chat.example", "access-control-request-method": "POST" } }), 204],
      ["a method no route serves", await raw("/api/research", { method: "PROPFIND" }), 405],
      ["a plain OPTIONS to a route", await app.fetch("/api/research", { method: "OPTIONS" }), 204],
      ["a plain OPTIONS to an unknown path", await app.fetch("/api/nothing/here", { method: "OPTIONS" }), 204],
    ];
    for (const [what, res, status] of cases) {
      assert.equal(res.status, status, what);
      assert.match(res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/, `${what}: ${res.headers.get("x-request-id")}`);
      await res.body?.cancel();
    }
    // An id is the server's, never the client's: one sent is replaced (it could be another user's run's).
    const own = await app.fetch("/api/v1/answers?limit=1", { headers: { "x-request-id": "chosen-by-the-client" } });
    assert.equal(own.status, 200);
    assert.match(own.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    const signedOut = await raw("/v1/models", { headers: { "x-request-id": "chosen-by-the-client" } });
    assert.match(signedOut.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    // Each request its own id.
    const ids = new Set(await Promise.all([1, 2, 3].map(async () => (await app.fetch("/v1/models")).headers.get("x-request-id"))));
    assert.equal(ids.size, 3);
  });

  test("a retry with the same Idempotency-Key joins the running run; so does the same request again within seconds", async () => {
    fakes.llm.configure({ latencyMs: 150 });
    try {
      const runs = await runCount();
      const key = `retry-${Date.now()}`;
      const first = chat({ messages: [{ role: "user", content: "Grid batteries 2024: how much storage was added?" }] }, { headers: { "Idempotency-Key": key } });
      await new Promise((r) => setTimeout(r, 300));
      const retry = chat({ messages: [{ role: "user", content: "Grid batteries 2024: how much storage was added?" }] }, { headers: { "Idempotency-Key": key } });
      const [a, b] = await Promise.all([first, retry]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.equal(a.headers.get("x-request-id"), b.headers.get("x-request-id"));
      const [ja, jb] = (await Promise.all([a.json(), b.json()])) as { choices: { message: { content: string } }[] }[];
      assert.equal(ja.choices[0].message.content, jb.choices[0].message.content);
      assert.equal(await runCount(), runs + 1, "one run in the database");

      // A run of the key that ended without an answer is not joined: the retry is a new attempt.
      const cancelKey = `cancelled-${Date.now()}`;
      const doomed = chat({ messages: [{ role: "user", content: "Grid batteries: what was cancelled?" }] }, { headers: { "Idempotency-Key": cancelKey } });
      let doomedId = "";
      for (let i = 0; i < 100 && !doomedId; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const list = (await (await app.fetch("/api/v1/answers?limit=5")).json()) as { answers: { requestId: string; question: string; status: string }[] };
        doomedId = list.answers.find((x) => x.question === "Grid batteries: what was cancelled?" && x.status === "running")?.requestId ?? "";
      }
      assert.equal((await app.postJson(`/api/v1/answers/${doomedId}/cancel`, {})).status, 200);
      const failed = await doomed;
      assert.equal(failed.status, 503);
      assert.ok(Number(failed.headers.get("retry-after")) > 0, "a retryable failure says when to retry");
      const again = await chat({ messages: [{ role: "user", content: "Grid batteries: what was cancelled?" }] }, { headers: { "Idempotency-Key": cancelKey } });
      assert.equal(again.status, 200);
      assert.notEqual(again.headers.get("x-request-id"), doomedId);
      assert.equal(await runCount(), runs + 3, "the first key's run, the cancelled one and its retry");

      // The same key for another question is a conflict, not a join.
      const other = await chat({ messages: [{ role: "user", content: "Something else entirely?" }] }, { headers: { "Idempotency-Key": key } });
      assert.equal(other.status, 409);

      // No key (raw fetch sends none): an identical body from the same user within seconds joins too.
      const body = { messages: [{ role: "user", content: "Battery storage added in 2024 worldwide?" }] };
      const x = chat(body);
      await new Promise((r) => setTimeout(r, 300));
      const [rx, ry] = await Promise.all([x, chat(body)]);
      assert.equal(rx.headers.get("x-request-id"), ry.headers.get("x-request-id"));
      assert.equal(await runCount(), runs + 4);
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
    }
  });

  test("the busy user's 429 says when a slot frees (from the running run and past durations), not a fixed 60 s", async () => {
    const limited = await TestApp.start({ name: "openai-params-limits", env: { ...fakes.env, MAX_CONCURRENT_RUNS_PER_USER: "1" } });
    try {
      // A quick run first: the user's runs take well under a second.
      assert.equal((await limited.postJson("/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: "What is 1+1=?" }] })).status, 200);
      fakes.llm.configure({ latencyMs: 400 });
      const running = await limited.postJson("/api/v1/query", { q: "An endless question about batteries" });
      assert.equal(running.status, 202);
      const busy = await limited.postJson("/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: QUESTION }] });
      assert.equal(busy.status, 429);
      const retryAfter = Number(busy.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && retryAfter < 10, `Retry-After ${retryAfter}`);
      assert.ok(busy.headers.get("x-request-id"));
      const { requestId } = (await running.json()) as { requestId: string };
      await limited.postJson(`/api/v1/answers/${requestId}/cancel`, {});
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
      await limited.stop();
    }
  });
});
