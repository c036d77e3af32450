// A server's refusal of a prompt longer than its context window, in each server's words; the window it
// names held to by every prompt budget from then on (or LLM_CONTEXT_TOKENS from the start).
import assert from "node:assert/strict";
import { test } from "node:test";
import { APICallError } from "ai";

process.env.OPENAI_BASE_URL = "http://context-limit.test/v1";
process.env.RESEARCH_MODEL = "small-model";
const { contextLimitOf, contextWindow, fitToContext, noteContextLimit, withContextRetry } = await import("./context-limit");
const { LlmUnavailableError } = await import("./errors");
const { resetEnvCache } = await import("../env");

const refusal = (statusCode: number, responseBody: string) => new APICallError({ message: "Bad Request", url: "http://x/v1/chat/completions", requestBodyValues: {}, statusCode, responseBody });

test("the window a refusal names, in vLLM's, OpenAI's, llama.cpp's, LM Studio's and TGI's words, wrapped or not", () => {
  assert.equal(contextLimitOf(refusal(400, '{"object":"error","message":"This model\'s maximum context length is 8192 tokens. However, you requested 9000 tokens."}')), 8192);
  assert.equal(contextLimitOf(new LlmUnavailableError(refusal(400, '{"error":{"message":"This model\'s maximum context length is 128000 tokens.","code":"context_length_exceeded"}}'))), 128000);
  assert.equal(contextLimitOf(refusal(400, '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":4096}}')), 4096);
  assert.equal(contextLimitOf(refusal(400, '{"error":"Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 2048 tokens, which is not enough."}')), 2048);
  assert.equal(contextLimitOf(refusal(422, '{"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 5000 `inputs` tokens and 20 `max_new_tokens`"}')), 4096);
  assert.equal(contextLimitOf(refusal(400, '{"error":{"message":"max_tokens is too large"}}')), undefined);
  assert.equal(contextLimitOf(refusal(500, "maximum context length is 8192")), undefined);
  assert.equal(contextLimitOf(new Error("timeout")), undefined);
});

test("budgets are held to a share of the window once it is known; a build refused for its length is built again once, within it", async () => {
  assert.equal(contextWindow(), undefined);
  assert.equal(fitToContext(60_000), 60_000);
  let builds = 0;
  const built = await withContextRetry(async () => {
    builds++;
    if (fitToContext(60_000) > 4_000) throw new LlmUnavailableError(refusal(400, '{"message":"This model\'s maximum context length is 8192 tokens."}'));
    return fitToContext(60_000);
  });
  assert.deepEqual([builds, built, contextWindow()], [2, Math.floor(8192 * 0.4), 8192]);
  // A larger window named later does not widen it; a smaller one narrows it.
  noteContextLimit(refusal(400, '{"message":"maximum context length is 32768 tokens"}'));
  assert.equal(contextWindow(), 8192);
  await assert.rejects(withContextRetry(async () => Promise.reject(new Error("another failure"))), /another failure/);
});

test("LLM_CONTEXT_TOKENS says the window from the start", () => {
  process.env.RESEARCH_MODEL = "configured-model";
  process.env.LLM_CONTEXT_TOKENS = "4096";
  resetEnvCache();
  assert.equal(contextWindow(), 4096);
  assert.equal(fitToContext(6_000), Math.floor(4096 * 0.4));
  assert.equal(fitToContext(1_000), 1_000);
});
