import assert from "node:assert/strict";
import { test } from "node:test";
import { AppError } from "../errors";
import { chatRequestSchema, toAnswerInput } from "./openai";

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
