// The answer agent as real chat clients use it (issue 24): the official openai package on the
// Responses API, the AI SDK's default `openai(...)` provider (Responses) and its openai-compatible
// provider (Chat), LangChain's ChatOpenAI; sources they can show ([^n] markers, annotations spanning
// the cited sentence, visitedURLs/readURLs/numURLs); and the protocol edges: /v1/models/:id, CORS,
// an ended stream's 204, request ids per user, no cookies from /v1.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, streamText } from "ai";
import { ChatOpenAI } from "@langchain/openai";
import type { AIMessageChunk } from "@langchain/core/messages";
import fs from "node:fs";
import path from "node:path";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { ask, askAndWait, getAnswer, readSse } from "../helpers/answer";
import { createTestToken, createTestUser } from "../helpers/auth";

const QUESTION = "How much storage did grid batteries add in 2024?";
const ALLOWED_ORIGIN = "https://chat.allowed.example";

describe("chat clients of the answer agent", () => {
  let fakes: Fakes;
  let app: TestApp;
  let client: OpenAI;
  before(async () => {
    fakes = await startFakes({ search: { failingPageShare: 0 } });
    app = await TestApp.start({ name: "answer-clients", env: { ...fakes.env, RATE_LIMIT_STARTS_PER_HOUR: "1000", ANSWER_CORS_ORIGINS: `${ALLOWED_ORIGIN}, https://other.example` } });
    client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: app.user.token, maxRetries: 0 });
  });
  after(async () => {
    await app?.stop();
    await fakes?.stop();
  });

  describe("GET /v1/models/:id", () => {
    test("the served model is found; another id is a 404 in OpenAI's shape (NotFoundError in the client)", async () => {
      assert.equal((await client.models.retrieve("quarry-answer")).id, "quarry-answer");
      await assert.rejects(client.models.retrieve("gpt-4o"), (e: unknown) => e instanceof OpenAI.NotFoundError);
      const res = await app.fetch("/v1/models/gpt-4o");
      assert.equal(res.status, 404);
      const body = (await res.json()) as { error: { type: string; code: string; message: string } };
      assert.equal(body.error.type, "not_found_error");
      assert.equal(body.error.code, "model_not_found");
    });
  });

  describe("POST /v1/responses with the official openai client", () => {
    test("non-streaming: output_text with [^1] and a url_citation spanning the cited sentence, steps as reasoning, usage, source lists", async () => {
      const r = await client.responses.create({ model: "quarry-answer", input: `Answer in sentences: ${QUESTION}` });
      assert.equal(r.status, "completed");
      const message = r.output.find((o) => o.type === "message")!;
      assert.equal(message.type, "message");
      const text = message.content[0];
      assert.equal(text.type, "output_text");
      if (text.type !== "output_text") return;
      assert.equal(r.output_text, text.text);
      assert.match(text.text, /\[\^1\]/);
      const [a] = text.annotations as { type: string; start_index: number; end_index: number; url: string }[];
      assert.equal(a.type, "url_citation");
      assert.ok(a.url.startsWith(fakes.web.baseUrl), a.url);
      const span = text.text.slice(a.start_index, a.end_index);
      assert.ok(a.start_index > 0 && a.end_index < text.text.length, `the span is one sentence, not the answer: ${JSON.stringify({ span, text: text.text })}`);
      assert.ok(span.endsWith("[^1]"), span);
      const reasoning = r.output.find((o) => o.type === "reasoning");
      assert.match(JSON.stringify(reasoning), /Searching: /);
      assert.ok(r.usage!.total_tokens > 0 && r.usage!.total_tokens === r.usage!.input_tokens + r.usage!.output_tokens);
      const extra = r as unknown as { visitedURLs: string[]; readURLs: string[]; numURLs: number };
      assert.ok(extra.readURLs.includes(a.url));
      assert.equal(extra.numURLs, extra.visitedURLs.length);
      assert.ok(extra.numURLs >= extra.readURLs.length && extra.numURLs > 0);
    });

    test("streaming: OpenAI's event types in order, the text deltas add up, the annotation and usage come at the end", async () => {
      const stream = await client.responses.create({ model: "quarry-answer", input: [{ role: "user", content: [{ type: "input_text", text: QUESTION }] }], stream: true });
      const types: string[] = [];
      let text = "";
      let reasoning = "";
      let completed: OpenAI.Responses.Response | undefined;
      let annotations = 0;
      for await (const e of stream) {
        types.push(e.type);
        if (e.type === "response.output_text.delta") text += e.delta;
        if (e.type === "response.reasoning_summary_text.delta") reasoning += e.delta;
        if (e.type === "response.output_text.annotation.added") annotations++;
        if (e.type === "response.completed") completed = e.response;
      }
      assert.deepEqual(types.slice(0, 3), ["response.created", "response.in_progress", "response.output_item.added"]);
      assert.equal(types.at(-1), "response.completed");
      assert.match(reasoning, /Searching: /);
      assert.ok(text.length > 30);
      assert.equal(annotations, 1);
      const message = completed!.output.find((o) => o.type === "message");
      assert.equal(message?.type === "message" && message.content[0].type === "output_text" ? message.content[0].text : null, text);
      assert.ok(completed!.usage!.total_tokens > 0);
    });

    test("bad input is a 400 the client raises as BadRequestError, naming the parameter", async () => {
      await assert.rejects(
        client.responses.create({ model: "quarry-answer", input: QUESTION, reasoning: { effort: "extreme" as "high" } }),
        (e: unknown) => e instanceof OpenAI.BadRequestError && /reasoning\.effort/.test(e.message),
      );
      await assert.rejects(client.responses.create({ model: "nope", input: QUESTION }), (e: unknown) => e instanceof OpenAI.NotFoundError);
    });
  });

  describe("the AI SDK's default openai(...) provider (Responses API)", () => {
    test("generateText and streamText: text, sources, usage", async () => {
      const openai = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: app.user.token });
      const result = await generateText({ model: openai("quarry-answer"), prompt: QUESTION });
      assert.ok(result.text.length > 30, result.text);
      assert.equal(result.sources.length, 1);
      assert.ok((result.usage.totalTokens ?? 0) > 0);
      assert.ok(result.reasoningText?.includes("Searching: "));

      const streamed = streamText({ model: openai("quarry-answer"), prompt: QUESTION });
      assert.ok((await streamed.text).length > 30);
      assert.equal((await streamed.sources).length, 1);
      assert.equal(await streamed.finishReason, "stop");
      assert.ok(((await streamed.usage).totalTokens ?? 0) > 0);
    });

    test("an unknown model is an APICallError with status 404", async () => {
      const openai = createOpenAI({ baseURL: `${app.url}/v1`, apiKey: app.user.token });
      await assert.rejects(generateText({ model: openai("nope"), prompt: QUESTION, maxRetries: 0 }), (e: unknown) => APICallError.isInstance(e) && e.statusCode === 404);
    });
  });

  describe("the AI SDK's openai-compatible provider (Chat Completions)", () => {
    const provider = () => createOpenAICompatible({ name: "quarry", baseURL: `${app.url}/v1`, apiKey: app.user.token, includeUsage: true });

    test("generateText and streamText: the answer with its [^1] marker, usage equal to the run's", async () => {
      const result = await generateText({ model: provider()("quarry-answer"), prompt: QUESTION });
      assert.match(result.text, /\[\^1\]/);
      assert.ok((result.usage.totalTokens ?? 0) > 0);
      const streamed = streamText({ model: provider()("quarry-answer"), prompt: QUESTION });
      assert.match(await streamed.text, /\[\^1\]/);
      const usage = await streamed.usage;
      const runs = (await (await app.fetch("/api/v1/answers?limit=1")).json()) as { answers: { usage: { totalTokens: number } }[] };
      assert.equal(usage.totalTokens, runs.answers[0].usage.totalTokens);
    });

    test("an unknown model is an APICallError with status 404; a bad parameter 400", async () => {
      await assert.rejects(generateText({ model: provider()("nope"), prompt: QUESTION, maxRetries: 0 }), (e: unknown) => APICallError.isInstance(e) && e.statusCode === 404);
    });
  });

  describe("LangChain's ChatOpenAI", () => {
    const chat = (options: Record<string, unknown> = {}) => new ChatOpenAI({ model: "quarry-answer", apiKey: app.user.token, configuration: { baseURL: `${app.url}/v1` }, maxRetries: 0, ...options });

    const storedTotal = async () => ((await (await app.fetch("/api/v1/answers?limit=1")).json()) as { answers: { usage: { totalTokens: number } }[] }).answers[0].usage.totalTokens;

    test("invoke (Chat Completions): the answer with its [^1] marker, usage equal to the run's", async () => {
      const message = await chat().invoke(QUESTION);
      assert.match(String(message.content), /\[\^1\]/);
      assert.equal(message.usage_metadata?.total_tokens, await storedTotal());
    });

    test("invoke on the Responses API (useResponsesApi): the url_citation annotation reaches the message", async () => {
      const message = await chat({ useResponsesApi: true }).invoke(QUESTION);
      assert.match(JSON.stringify(message.content), /url_citation/);
      assert.match(JSON.stringify(message.content), /\[\^1\]/);
      assert.equal(message.usage_metadata?.total_tokens, await storedTotal());
    });

    test("stream: the chunks add up to the answer", async () => {
      let text = "";
      for await (const c of await chat().stream(QUESTION)) text += typeof c.content === "string" ? c.content : "";
      assert.match(text, /\[\^1\]/);
    });

    test("stream with streamUsage: the usage comes once, equal to the run's (not doubled); without it, none", async () => {
      let total: AIMessageChunk | undefined;
      let withUsage = 0;
      for await (const c of await chat({ streamUsage: true }).stream(QUESTION)) {
        if (c.usage_metadata) withUsage++;
        total = total ? total.concat(c) : c;
      }
      assert.equal(withUsage, 1, "one chunk carries the usage");
      assert.match(String(total!.content), /\[\^1\]/);
      const stored = await storedTotal();
      assert.ok(stored > 0);
      assert.equal(total!.usage_metadata?.total_tokens, stored, "summed over the chunks: the run's total once");
      assert.equal(total!.usage_metadata!.input_tokens + total!.usage_metadata!.output_tokens, stored);

      let none: AIMessageChunk | undefined;
      for await (const c of await chat({ streamUsage: false }).stream(QUESTION)) none = none ? none.concat(c) : c;
      assert.equal(none!.usage_metadata, undefined, "usage only when asked");
    });

    test("an unknown model raises LangChain's not-found error", async () => {
      await assert.rejects(chat({ model: "nope" }).invoke(QUESTION), (e: unknown) => (e as { status?: number; lc_error_code?: string }).status === 404 || (e as { lc_error_code?: string }).lc_error_code === "MODEL_NOT_FOUND");
    });
  });

  describe("sources", () => {
    test("a quote attached to the wrong page is moved to the page it is on, not dropped", async () => {
      const { stored } = await askAndWait(app, { q: "What misattributed storage did grid batteries add in 2024?" });
      assert.equal(stored.status, "completed");
      assert.equal(stored.references.length, 1);
      const accepted = stored.steps.find((s) => s.payload.outcome === "accepted")!;
      const claimed = (accepted.payload.references as { url: string }[])[0].url;
      assert.notEqual(stored.references[0].url, claimed, "the reference names the page that holds the quote");
      const page = await app.db.answerPage.findFirst({ where: { url: stored.references[0].url } });
      assert.ok(page?.content.replace(/\s+/g, " ").includes(stored.references[0].exactQuote));
    });

    test("a beast-mode answer without sources says so, in the text and in the answer event", async () => {
      const { requestId, events, stored } = await askAndWait(app, { q: "An endless unsourced question about grid batteries in 2024", budget: 9_000 });
      const final = events.at(-1)!.data as { type: string; beastMode: string | null; noSources: boolean; answer: string };
      assert.equal(final.type, "answer", JSON.stringify(final));
      assert.match(String(final.beastMode), /budget/);
      assert.equal(final.noSources, true);
      assert.match(final.answer, /No sources/);
      assert.equal(stored.references.length, 0);
      const replayed = (await readSse(app, `/api/v1/stream/${requestId}`)).at(-1)!.data as unknown as { noSources: boolean };
      assert.equal(replayed.noSources, true, "a replay from storage says so too");
    });
  });

  describe("progress that is true", () => {
    test("steps show the queries searched and the pages read; a follow-up is stored with its conversation", async () => {
      const res = await app.postJson("/v1/chat/completions", {
        model: "quarry-answer",
        messages: [{ role: "user", content: "Tell me about grid batteries." }, { role: "assistant", content: "They store power." }, { role: "user", content: QUESTION }],
      });
      assert.equal(res.status, 200);
      const requestId = res.headers.get("x-request-id")!;
      const stored = (await getAnswer(app, requestId)) as Awaited<ReturnType<typeof getAnswer>> & { conversation?: string };
      assert.match(stored.conversation ?? "", /user: Tell me about grid batteries\.\nassistant: They store power\./);
      // The evaluator judges the answer in the conversation, not the last question alone.
      const judged = fakes.llm.log.filter((e) => e.agent === "answer-evaluator" && e.messages.some((m) => JSON.stringify(m.content).includes("They store power.")));
      assert.ok(judged.length > 0, "the evaluator saw the conversation");
      const visit = stored.steps.find((s) => s.action === "visit")!;
      const shown = await readSse(app, `/api/v1/stream/${requestId}`);
      const step = shown.find((e) => e.data.type === "progress" && (e.data.trackers as { step: number }).step === visit.step)!;
      const targets = (step.data.trackers as { actionState: { URLTargets: string[] } }).actionState.URLTargets;
      assert.deepEqual(targets, visit.payload.read, "the pages read, not the URLs asked for");
      assert.ok(targets.every((u) => stored.readURLs.includes(u)));
    });
  });

  describe("chat clients' own requests (test/fixtures/chat-clients)", () => {
    const fixtures = fs
      .readdirSync(path.resolve(import.meta.dirname, "../fixtures/chat-clients"))
      .flatMap((f) => (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/chat-clients", f), "utf8")) as { client: string; fixtures: { name: string; expect: string; body: Record<string, unknown> }[] }).fixtures.map((x) => ({ ...x, file: f })));
    const runCount = async () => ((await (await app.fetch("/api/v1/answers?limit=100")).json()) as { answers: unknown[] }).answers.length;

    test("quarry-chat is listed and answers with one plain call, through the official client on both APIs", async () => {
      assert.equal((await client.models.retrieve("quarry-chat")).id, "quarry-chat");
      const runs = await runCount();
      fakes.reset();
      const r = await client.chat.completions.create({ model: "quarry-chat", messages: [{ role: "user", content: "Say hello." }], max_tokens: 30, stop: ["\n\n"] });
      assert.equal(r.model, "quarry-chat");
      assert.ok(r.choices[0].message.content!.length > 0);
      const resp = await client.responses.create({ model: "quarry-chat", input: "Say hello." });
      assert.deepEqual([resp.model, resp.status, resp.output_text.length > 0], ["quarry-chat", "completed", true]);
      assert.equal(fakes.llm.log.length, 2);
      assert.equal(await runCount(), runs, "no run");
    });

    test("every housekeeping body (6 clients, their current and earlier templates) is a plain reply: 0 research runs", async () => {
      const runs = await runCount();
      fakes.reset();
      for (const f of fixtures.filter((x) => x.expect === "housekeeping")) {
        const res = await app.postJson("/v1/chat/completions", f.body);
        assert.equal(res.status, 200, `${f.file}: ${f.name}: ${await res.clone().text()}`);
        await res.text();
      }
      assert.equal(await runCount(), runs, "no research started");
      assert.equal(fakes.llm.calls("answer-agent"), 0);
      assert.equal(fakes.search.log.length, 0);
    });

    test("a question with a RAG context block (Open WebUI's web search, Page Assist's) is researched", async () => {
      for (const name of ["question with web search (RAG template before the query)", "question with web search results"]) {
        const f = fixtures.find((x) => x.name === name)!;
        const runs = await runCount();
        const res = await app.postJson("/v1/chat/completions", { ...f.body, stream: false });
        assert.equal(res.status, 200, name);
        const stored = (await getAnswer(app, res.headers.get("x-request-id")!)) as Awaited<ReturnType<typeof getAnswer>> & { question: string };
        assert.equal(await runCount(), runs + 1, name);
        assert.equal(stored.status, "completed");
        assert.doesNotMatch(stored.question, /### Task|<context>|search-results/, "the question is the user's query, not the template");
      }
    });

    test("the openai client with a short timeout and retries starts one run, which goes on and completes", async () => {
      const runs = await runCount();
      fakes.llm.configure({ latencyMs: 700 });
      try {
        const impatient = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: app.user.token, timeout: 2_500, maxRetries: 2 });
        // Its first attempt times out (the run takes several calls of 700 ms); a retry joins the run and
        // either times out too or, when the run ended meanwhile, gets its answer: either way one run.
        const outcome = await impatient.chat.completions
          .create({ model: "quarry-answer", messages: [{ role: "user", content: "Which storage technology grew fastest in 2024?" }] })
          .then(
            () => "answered",
            (e: unknown) => (e instanceof OpenAI.APIConnectionTimeoutError ? "timed out" : e),
          );
        assert.ok(outcome === "answered" || outcome === "timed out", String(outcome));
        assert.equal(await runCount(), runs + 1, "its retries joined the one run");
        const list = (await (await app.fetch("/api/v1/answers?limit=1")).json()) as { answers: { requestId: string }[] };
        let status = "";
        for (let i = 0; i < 200 && status !== "completed"; i++) {
          status = (await getAnswer(app, list.answers[0].requestId)).status;
          if (status === "cancelled" || status === "failed") break;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal(status, "completed", "not cancelled by the client going away");
      } finally {
        fakes.llm.configure({ latencyMs: 0 });
      }
    });

    test("Responses parity: tools a 400, previous_response_id continues a stored response, a max_output_tokens cut is incomplete", async () => {
      await assert.rejects(
        client.responses.create({ model: "quarry-answer", input: QUESTION, tools: [{ type: "function", name: "lookup", parameters: { type: "object", properties: {} }, strict: false }] }),
        (e: unknown) => e instanceof OpenAI.BadRequestError && e.param === "tools",
      );
      await assert.rejects(client.responses.create({ model: "quarry-answer", input: QUESTION, previous_response_id: "resp_unknown" }), (e: unknown) => e instanceof OpenAI.BadRequestError && e.param === "previous_response_id");
      const first = await client.responses.create({ model: "quarry-answer", input: QUESTION, reasoning: { effort: "low" } });
      const next = await client.responses.create({ model: "quarry-answer", input: "And how much in Europe?", previous_response_id: first.id, reasoning: { effort: "low" } });
      assert.equal(next.previous_response_id, first.id);
      const stored = (await getAnswer(app, next.id.slice("resp_".length))) as Awaited<ReturnType<typeof getAnswer>> & { conversation?: string };
      assert.match(stored.conversation ?? "", /^user: How much storage/);
      const cut = await client.responses.create({ model: "quarry-answer", input: `Answer in sentences: ${QUESTION}`, reasoning: { effort: "low" }, max_output_tokens: 40 });
      assert.equal(cut.status, "incomplete");
      assert.equal(cut.incomplete_details?.reason, "max_output_tokens");
      assert.doesNotMatch(cut.output_text, /\p{L}\[\^/u, "no marker glued to a cut word");
    });

    test("a browser app on another origin follows a run with EventSource: the stream token in the query, no header", async () => {
      const res = await app.postJson("/api/v1/query", { q: QUESTION });
      const { requestId, streamUrl, streamToken } = (await res.json()) as { requestId: string; streamUrl: string; streamToken: string };
      assert.ok(streamToken);
      const follow = (token: string) => fetch(`${app.url}${streamUrl}?token=${encodeURIComponent(token)}`, { headers: { origin: ALLOWED_ORIGIN, accept: "text/event-stream" } });
      const ok = await follow(streamToken);
      assert.equal(ok.status, 200);
      assert.match(ok.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(ok.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN);
      assert.match(await ok.text(), /"type":"answer"/);
      assert.equal((await follow(`${streamToken}x`)).status, 401);
      const other = (await (await app.postJson("/api/v1/query", { q: "What is 1+1=?" })).json()) as { requestId: string; streamToken: string };
      assert.equal((await fetch(`${app.url}/api/v1/stream/${requestId}?token=${encodeURIComponent(other.streamToken)}`)).status, 401, "a token reads its own run only");
      assert.equal((await fetch(`${app.url}${streamUrl}`)).status, 401, "no token, no header: signed out");
    });
  });

  describe("protocol edges", () => {
    test("CORS: a preflight from an allowed origin is answered before sign-in; others get no grant; responses name the origin", async () => {
      const preflight = (origin: string, path = "/v1/chat/completions") =>
        fetch(`${app.url}${path}`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, x-stainless-os" } });
      const ok = await preflight(ALLOWED_ORIGIN);
      assert.equal(ok.status, 204);
      assert.equal(ok.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN);
      assert.match(ok.headers.get("access-control-allow-methods") ?? "", /POST/);
      assert.match(ok.headers.get("access-control-allow-headers") ?? "", /authorization/);
      const denied = await preflight("https://evil.example");
      assert.equal(denied.headers.get("access-control-allow-origin"), null);
      assert.equal((await preflight(ALLOWED_ORIGIN, "/api/v1/query")).headers.get("access-control-allow-origin"), ALLOWED_ORIGIN);

      const res = await app.fetch("/v1/models", { headers: { origin: ALLOWED_ORIGIN } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN);
      assert.match(res.headers.get("access-control-expose-headers") ?? "", /x-request-id/);
      const signedOut = await fetch(`${app.url}/v1/models`, { headers: { origin: ALLOWED_ORIGIN } });
      assert.equal(signedOut.status, 401);
      assert.equal(signedOut.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN, "a browser client can read why it was refused");
      assert.equal((await app.fetch("/v1/models", { headers: { origin: "https://evil.example" } })).headers.get("access-control-allow-origin"), null);
    });

    test("a stream reconnecting after the run ended gets 204, so EventSource stops; a first connect still replays", async () => {
      const { requestId, streamUrl } = await ask(app, { q: QUESTION });
      const events = await readSse(app, streamUrl);
      assert.equal(events.at(-1)!.data.type, "answer");
      const again = await app.fetch(streamUrl, { headers: { "last-event-id": String(events.at(-1)!.id) } });
      assert.equal(again.status, 204);
      assert.equal(await again.text(), "");
      const earlier = await readSse(app, streamUrl, { lastEventId: events.at(-2)!.id! });
      assert.deepEqual(earlier.map((e) => e.data.type), ["answer"]);
      assert.equal((await readSse(app, `/api/v1/stream/${requestId}`)).length, events.length);
    });

    test("request ids are per user: another user's is a 404 everywhere, and they may use the same id", async () => {
      const { requestId } = await askAndWait(app, { q: QUESTION, requestId: `shared-${Date.now()}` });
      const other = await createTestUser(app.db);
      const as = { authorization: `Bearer ${other.token}` };
      for (const [method, path] of [["GET", `/api/v1/answers/${requestId}`], ["GET", `/api/v1/stream/${requestId}`], ["POST", `/api/v1/answers/${requestId}/cancel`]]) {
        const res = await app.fetch(path, { method, headers: as });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.doesNotMatch(await res.text(), new RegExp(QUESTION.slice(0, 20)));
      }
      const mine = await app.postJson("/api/v1/query", { q: "What is 1+1?", requestId }, { headers: as });
      assert.equal(mine.status, 202, await mine.clone().text());
      assert.equal(((await getAnswer(app, requestId)) as unknown as { question: string }).question, QUESTION, "the owner's run is untouched");
    });

    // Issue 52: a stream opened with a token ends when that token is revoked, as the answer agent's own stream does.
    /**
     * Opens a streaming `pathname` request with a token of its own, revokes the token through the API once
     * the stream has begun, and reads on: the text read after the revocation and how long the stream took to end.
     */
    async function revokedMidStream(pathname: string, body: object, begun: RegExp) {
      const second = await createTestToken(app.db, app.user.id, { name: `revoked mid-stream ${pathname}` });
      // Slow calls: the run cannot end while the test watches.
      fakes.llm.configure({ latencyMs: 3_000 });
      const controller = new AbortController();
      try {
        const res = await fetch(`${app.url}${pathname}`, { method: "POST", headers: { authorization: `Bearer ${second.token}`, "content-type": "application/json" }, body: JSON.stringify(body), signal: controller.signal });
        // (Its body is not read for the message: it is the stream.)
        assert.equal(res.status, 200);
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let before = "";
        while (!begun.test(before)) {
          const { value, done } = await reader.read();
          assert.ok(!done, `the stream ended before it began: ${before}`);
          before += value;
        }
        const revoked = await app.fetch(`/api/tokens/${second.tokenId}`, { method: "DELETE" });
        assert.equal(revoked.status, 200, await revoked.clone().text());
        const at = Date.now();
        const timer = setTimeout(() => controller.abort(), 10_000);
        let after = "";
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            after += value;
          }
        } finally {
          clearTimeout(timer);
        }
        const tookMs = Date.now() - at;
        const requestId = res.headers.get("x-request-id")!;
        assert.equal((await fetch(`${app.url}${pathname}`, { method: "POST", headers: { authorization: `Bearer ${second.token}`, "content-type": "application/json" }, body: JSON.stringify(body) })).status, 401, "the revoked token makes no new request");
        return { after, tookMs, requestId };
      } finally {
        controller.abort();
        fakes.llm.configure({ latencyMs: 0 });
      }
    }
    const dataOf = (text: string) => text.split("\n\n").flatMap((f) => f.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice("data: ".length)));

    test("a streaming chat completion whose token is revoked ends within seconds: an error chunk naming why, then [DONE]; the run is left as when the client goes away", async () => {
      const { after, tookMs, requestId } = await revokedMidStream("/v1/chat/completions", { model: "quarry-answer", stream: true, messages: [{ role: "user", content: "Which grid battery projects were the largest commissioned in 2024?" }] }, /"role":"assistant"/);
      assert.ok(tookMs < 4_000, `the stream ended ${tookMs} ms after the revocation`);
      const data = dataOf(after);
      assert.equal(data.at(-1), "[DONE]", after);
      const error = JSON.parse(data.at(-2)!) as { error: { message: string; type: string; code: string } };
      assert.equal(error.error.type, "authentication_error", after);
      assert.equal(error.error.code, "invalid_api_key");
      assert.match(error.error.message, /token .*revoked/);
      assert.doesNotMatch(after, /"finish_reason":"stop"/, "no answer after the revocation");
      assert.notEqual((await getAnswer(app, requestId)).status, "failed", "the run is not failed by the revocation");
    });

    test("a streaming response whose token is revoked ends within seconds with response.failed naming why", async () => {
      const { after, tookMs, requestId } = await revokedMidStream("/v1/responses", { model: "quarry-answer", stream: true, input: "Which countries added the most grid battery storage in 2024?" }, /response\.in_progress/);
      assert.ok(tookMs < 4_000, `the stream ended ${tookMs} ms after the revocation`);
      const last = JSON.parse(dataOf(after).at(-1)!) as { type: string; response: { status: string; error: { code: string; message: string } } };
      assert.equal(last.type, "response.failed", after);
      assert.equal(last.response.status, "failed");
      assert.equal(last.response.error.code, "invalid_api_key");
      assert.match(last.response.error.message, /token .*revoked/);
      assert.notEqual((await getAnswer(app, requestId)).status, "failed", "the run is not failed by the revocation");
    });

    test("/v1 sets no cookies", async () => {
      for (const res of [await app.fetch("/v1/models"), await app.fetch("/v1/models/quarry-answer"), await app.fetch("/v1/nothing"), await fetch(`${app.url}/v1/models`)]) {
        assert.deepEqual(res.headers.getSetCookie(), [], res.url);
      }
    });
  });
});
