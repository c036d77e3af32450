import assert from "node:assert/strict";
import { test } from "node:test";
import { AppError } from "../errors";
import { chatRequestSchema, completionBody, toAnswerInput } from "./openai";
import { responsesRequestSchema, toChat } from "./responses";
import type { FinalAnswer } from "./events";

const body = (extra: Record<string, unknown>) => chatRequestSchema.parse({ model: "quarry-answer", messages: [{ role: "user", content: "Q?" }], ...extra });

test("reasoning_effort maps to a budget and bad attempts; max_completion_tokens caps the budget", () => {
  assert.deepEqual([toAnswerInput(body({ reasoning_effort: "low" })).budget, toAnswerInput(body({ reasoning_effort: "low" })).maxBadAttempt], [100_000, 1]);
  assert.equal(toAnswerInput(body({})).budget, 500_000);
  assert.equal(toAnswerInput(body({ reasoning_effort: "high" })).budget, 1_000_000);
  assert.equal(toAnswerInput(body({ reasoning_effort: "high", max_completion_tokens: 7_000 })).budget, 7_000);
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
