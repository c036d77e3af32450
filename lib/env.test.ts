import { test } from "node:test";
import assert from "node:assert/strict";
import { loadEnv } from "./env";

test("defaults need no variables at all", () => {
  const { env, problems } = loadEnv({});
  assert.equal(env.LLM_CONCURRENCY, 128);
  assert.equal(env.SEARCH_CONCURRENCY, 16);
  assert.equal(env.ANALYZE_CONCURRENCY_PER_QUERY, 7);
  assert.equal(env.DATABASE_URL, "file:./data/quarry.db");
  assert.deepEqual(problems, []);
});

test("a malformed service URL is reported by name and does not stop the app", () => {
  const { env, problems } = loadEnv({ OPENAI_BASE_URL: "localhost:11434", SEARXNG_URL: "http://127.0.0.1:8080" });
  assert.equal(env.OPENAI_BASE_URL, undefined);
  assert.equal(env.SEARXNG_URL, "http://127.0.0.1:8080");
  assert.equal(problems.length, 1);
  assert.equal(problems[0].variable, "OPENAI_BASE_URL");
  assert.match(problems[0].message, /OPENAI_BASE_URL must be a full http\(s\) URL/);
});

test("any other invalid value throws, naming the variable", () => {
  assert.throws(() => loadEnv({ LLM_CONCURRENCY: "lots" }), /LLM_CONCURRENCY/);
  assert.throws(() => loadEnv({ LLM_CONCURRENCY: "0" }), /LLM_CONCURRENCY must be at least 1/);
  assert.throws(() => loadEnv({ DATABASE_URL: "mysql://x" }), /DATABASE_URL/);
  assert.equal(loadEnv({ DATABASE_URL: "postgres://quarry@db:5432/quarry" }).env.DATABASE_URL, "postgres://quarry@db:5432/quarry");
});

test("the model's prices are optional dollar amounts; the estimate's figures have defaults", () => {
  const { env } = loadEnv({});
  assert.equal(env.LLM_PRICE_INPUT_PER_MTOK, undefined);
  assert.equal(env.ESTIMATE_SECONDS_PER_CALL, 6);
  const priced = loadEnv({ LLM_PRICE_INPUT_PER_MTOK: "0.40", LLM_PRICE_OUTPUT_PER_MTOK: " 1.6 " }).env;
  assert.equal(priced.LLM_PRICE_INPUT_PER_MTOK, 0.4);
  assert.equal(priced.LLM_PRICE_OUTPUT_PER_MTOK, 1.6);
  assert.equal(loadEnv({ LLM_PRICE_INPUT_PER_MTOK: "" }).env.LLM_PRICE_INPUT_PER_MTOK, undefined);
  assert.throws(() => loadEnv({ LLM_PRICE_INPUT_PER_MTOK: "cheap" }), /LLM_PRICE_INPUT_PER_MTOK must be a number of US dollars/);
  assert.throws(() => loadEnv({ LLM_PRICE_OUTPUT_PER_MTOK: "-1" }), /LLM_PRICE_OUTPUT_PER_MTOK must be at least 0/);
  assert.throws(() => loadEnv({ ESTIMATE_SECONDS_PER_CALL: "0" }), /ESTIMATE_SECONDS_PER_CALL must be at least 1/);
});
