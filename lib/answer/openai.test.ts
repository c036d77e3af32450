import assert from "node:assert/strict";
import { test } from "node:test";
import { AppError } from "../errors";
import { assertHonourable, chatRequestSchema, completionBody, replySettings, retryOf, taskMessages, toAnswerInput } from "./openai";
import { responsesRequestSchema, toChat } from "./responses";
import type { FinalAnswer } from "./events";

const body = (extra: Record<string, unknown>) => chatRequestSchema.parse({ model: "quarry-answer", messages: [{ role: "user", content: "Q?" }], ...extra });

test("reasoning_effort maps to a budget and bad attempts; budget_tokens and max_attempts override them; max_tokens limits the answer only", () => {
  assert.deepEqual([toAnswerInput(body({ reasoning_effort: "low" })).budget, toAnswerInput(body({ reasoning_effort: "low" })).maxBadAttempt], [100_000, 1]);
  assert.equal(toAnswerInput(body({})).budget, 500_000);
  assert.equal(toAnswerInput(body({ reasoning_effort: "high" })).budget, 1_000_000);
  const limited = toAnswerInput(body({ reasoning_effort: "high", max_completion_tokens: 7_000 }));
  assert.equal(limited.budget, 1_000_000);
  assert.equal(limited.options.maxAnswerTokens, 7_000);
  assert.equal(toAnswerInput(body({ max_tokens: 50 })).options.maxAnswerTokens, 50);
  const custom = toAnswerInput(body({ budget_tokens: 20_000, max_attempts: 5, no_direct_answer: true, bad_hostnames: ["Example.com"], temperature: 0.2 }));
  assert.deepEqual([custom.budget, custom.maxBadAttempt], [20_000, 5]);
  assert.deepEqual(custom.options, { temperature: 0.2, noDirectAnswer: true, badHostnames: ["example.com"] });
  assert.throws(() => toAnswerInput(body({ budget_tokens: 100 })), (e: AppError) => e.type === "bad_request" && e.field === "budget_tokens");
  assert.throws(() => toAnswerInput(body({ budget_tokens: 10_000_000 })), (e: AppError) => e.type === "bad_request" && e.field === "budget_tokens");
});

test("what cannot be honoured is a 400 naming the parameter: n > 1, tools, functions, tool_choice, images", () => {
  const refused = (extra: Record<string, unknown>, field: string) =>
    assert.throws(() => assertHonourable(body(extra)), (e: AppError) => e.type === "bad_request" && e.field === field && e.message.includes(field.split(".")[0] === "messages" ? "not supported" : field));
  refused({ n: 2 }, "n");
  refused({ tools: [{ type: "function", function: { name: "f" } }] }, "tools");
  refused({ functions: [{ name: "f" }] }, "functions");
  refused({ tool_choice: "required" }, "tool_choice");
  refused({ messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: "data:image/png;base64,AA" } }] }] }, "messages.0.content");
  assert.throws(() => assertHonourable(body({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] })), /Images are not supported/);
  assert.doesNotThrow(() => assertHonourable(body({ n: 1, tools: [], tool_choice: "none" })));
});

test("the question is at most 10,000 characters, as on /api/v1/query", () => {
  assert.throws(() => toAnswerInput(body({ messages: [{ role: "user", content: "x".repeat(10_001) }] })), (e: AppError) => e.type === "bad_request" && e.field === "messages" && /10,000/.test(e.message));
  assert.doesNotThrow(() => toAnswerInput(body({ messages: [{ role: "user", content: "x".repeat(10_000) }] })));
});

test("every chat parameter is honoured or a 400 naming it: logprobs, top_logprobs, logit_bias, audio, research parameters on quarry-chat", () => {
  const refused = (extra: Record<string, unknown>, field: string) => assert.throws(() => assertHonourable(body(extra)), (e: AppError) => e.type === "bad_request" && e.field === field && e.message.includes(field));
  refused({ logprobs: true }, "logprobs");
  refused({ top_logprobs: 3 }, "top_logprobs");
  refused({ logit_bias: { "50256": -100 } }, "logit_bias");
  refused({ modalities: ["text", "audio"] }, "modalities");
  refused({ audio: { voice: "alloy", format: "wav" } }, "audio");
  refused({ model: "quarry-chat", budget_tokens: 20_000 }, "budget_tokens");
  refused({ model: "quarry-chat", reasoning_effort: "low" }, "reasoning_effort");
  assert.doesNotThrow(() => assertHonourable(body({ logprobs: false, modalities: ["text"], logit_bias: {}, user: "u1", metadata: { a: 1 }, store: false, service_tier: "auto", parallel_tool_calls: false })));
  assert.throws(() => assertHonourable(body({ model: "gpt-4o" })), (e: AppError) => e.type === "not_found" && e.field === "model" && /quarry-chat/.test(e.message));
  assert.equal(chatRequestSchema.safeParse({ model: "quarry-chat", messages: [{ role: "user", content: "x" }], stop: ["a", "b", "c", "d", "e"] }).success, false);
});

test("stop, seed and penalties go to the call that writes the reply; on a research they are the answer's options", () => {
  const settings = replySettings(body({ stop: "END", seed: 7, frequency_penalty: 0.5, presence_penalty: -0.5, temperature: 0.3 }));
  assert.deepEqual([settings.stopSequences, settings.seed, settings.frequencyPenalty, settings.presencePenalty, settings.temperature], [["END"], 7, 0.5, -0.5, 0.3]);
  assert.deepEqual(toAnswerInput(body({ stop: ["\n\n", "END"], seed: 7 })).options, { stop: ["\n\n", "END"], seed: 7 });
});

test("a plain call's messages: roles kept; system messages alone (LibreChat's legacy title) give the last as the user's", () => {
  assert.deepEqual(taskMessages(body({ messages: [{ role: "system", content: "Title this: ||>Title:" }] })), [{ role: "user", content: "Title this: ||>Title:" }]);
  assert.deepEqual(taskMessages(body({ messages: [{ role: "developer", content: "S" }, { role: "user", content: "Q" }] })).map((m) => m.role), ["system", "user"]);
});

test("a conversation over 20,000 characters is cut from its start, and the cut reported", () => {
  const long = "x".repeat(15_000);
  const input = toAnswerInput(body({ messages: [{ role: "user", content: long }, { role: "assistant", content: long }, { role: "user", content: "And now?" }] }));
  assert.equal(input.context.length, 20_000);
  assert.deepEqual(input.historyCut, { kept_chars: 20_000, total_chars: 30_018 });
  assert.equal(toAnswerInput(body({})).historyCut, undefined);
});

test("a retry is told by its Idempotency-Key or by x-stainless-retry-count above 0", () => {
  const req = (headers: Record<string, string>) => new Request("http://x/v1/chat/completions", { method: "POST", headers });
  assert.deepEqual(retryOf(req({ "idempotency-key": " k1 " })), { idempotencyKey: "k1", retry: false });
  assert.deepEqual(retryOf(req({ "x-stainless-retry-count": "0" })), { idempotencyKey: undefined, retry: false });
  assert.deepEqual(retryOf(req({ "x-stainless-retry-count": "2" })), { idempotencyKey: undefined, retry: true });
});

test("the last user message is the question; earlier ones are context", () => {
  const input = toAnswerInput(
    body({ messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "First" }, { role: "assistant", content: "Ok" }, { role: "user", content: [{ type: "text", text: "Second?" }] }] }),
  );
  assert.equal(input.q, "Second?");
  assert.equal(input.context, "system: Be brief.\nuser: First\nassistant: Ok");
});

test("an unknown model is a 404 naming the model; no user text is a 400 naming messages", () => {
  assert.throws(() => toAnswerInput(body({ model: "gpt-4o" })), (e: AppError) => e.type === "not_found" && e.field === "model");
  assert.throws(() => toAnswerInput(body({ messages: [{ role: "assistant", content: "hi" }] })), (e: AppError) => e.type === "bad_request" && e.field === "messages");
});

test("a completion carries the peer's source lists, noSources, and annotations spanning the cited sentence", () => {
  const answer = "Storage grew. Batteries added 10 GW in 2024.[^1] That is all.";
  const final = { requestId: "r", answer, references: [{ url: "https://a", title: "A", exactQuote: "Batteries added 10 GW" }], visitedURLs: ["https://a", "https://b"], readURLs: ["https://a"], usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3, budget: 9, byPurpose: {} }, steps: 2, badAttempts: 0, beastMode: null, noSources: false } as unknown as FinalAnswer;
  const body = completionBody({ id: "x", created: 1, final, reasoning: "" });
  assert.deepEqual([body.visitedURLs, body.readURLs, body.numURLs, body.noSources], [["https://a", "https://b"], ["https://a"], 2, false]);
  const { start_index, end_index } = body.choices[0].message.annotations[0].url_citation;
  assert.equal(answer.slice(start_index, end_index), "Batteries added 10 GW in 2024.[^1]");
});

test("a Responses input (text or messages, with instructions) becomes the chat the agent answers", () => {
  const chat = (input: unknown, extra: Record<string, unknown> = {}) => toAnswerInput(toChat(responsesRequestSchema.parse({ model: "quarry-answer", input, ...extra })));
  assert.equal(chat("What is up?").q, "What is up?");
  const multi = chat([{ role: "user", content: [{ type: "input_text", text: "First" }] }, { type: "message", role: "assistant", content: [{ type: "output_text", text: "Ok" }] }, { role: "user", content: "Second?" }], { instructions: "Be brief." });
  assert.equal(multi.q, "Second?");
  assert.equal(multi.context, "system: Be brief.\nuser: First\nassistant: Ok");
  assert.throws(() => chat([{ role: "assistant", content: "hi" }]), (e: AppError) => e.type === "bad_request" && e.field === "input");
  assert.equal(responsesRequestSchema.safeParse({ model: "quarry-answer", input: "" }).success, false);
});
