// The answer agent's knowledge is held to the model's context window where it is known (LLM_CONTEXT_TOKENS,
// or a refusal's: lib/ai/context-limit.ts), however much its token budget leaves.
import assert from "node:assert/strict";
import { test } from "node:test";

process.env.LLM_CONTEXT_TOKENS = "4096";
const { knowledgeTokens } = await import("./step");
const { TokenBudget } = await import("./budget");
const { zeroUsage } = await import("./types");

test("the answer agent's knowledge is held to a share of a known context window", () => {
  assert.equal(knowledgeTokens(new TokenBudget(1_000_000, zeroUsage()), "loop"), Math.floor(4096 * 0.4));
  // A budget that leaves less than that: the budget's share.
  assert.ok(knowledgeTokens(new TokenBudget(7_000, zeroUsage()), "loop") < Math.floor(4096 * 0.4));
});
