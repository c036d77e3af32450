import assert from "node:assert/strict";
import { test } from "node:test";
import { estimateTokens } from "../ai/prompts";
import { BudgetExhaustedError, TokenBudget, worstCaseTokens } from "./budget";
import { zeroUsage } from "./types";

test("the worst-case estimate is above the usual 4 characters a token, and counts non-ASCII characters one each", () => {
  assert.ok(worstCaseTokens("a".repeat(400)) > 100);
  assert.equal(worstCaseTokens("数据".repeat(10)), 20 + 32);
});

test("the loop gets 85%: the guard caps max output tokens to what is left and refuses when too little is", () => {
  const budget = new TokenBudget(10_000, zeroUsage());
  assert.equal(budget.limit("loop"), 8_500);
  assert.equal(budget.guard("loop", 4_000)("x"), 4_000);
  budget.sink("agent")({ promptTokens: 7_000, completionTokens: 500, calls: 1 });
  const cap = budget.guard("loop", 4_000)("x".repeat(300));
  assert.equal(cap, 8_500 - 7_500 - worstCaseTokens("x".repeat(300)));
  budget.sink("agent")({ promptTokens: 800, completionTokens: 0, calls: 1 });
  assert.throws(() => budget.guard("loop")("x".repeat(300)), BudgetExhaustedError);
  // Beast mode still has the reserve.
  assert.ok(budget.guard("beast")("x".repeat(300)) >= 1_000);
});

test("usage is kept per purpose and the total is their sum", () => {
  const budget = new TokenBudget(1_000_000, zeroUsage());
  budget.sink("agent")({ promptTokens: 10, completionTokens: 5, calls: 1 });
  budget.sink("evaluate")({ promptTokens: 7, completionTokens: 3, calls: 1 });
  budget.sink("agent")({ promptTokens: 1, completionTokens: 1, calls: 1 });
  assert.deepEqual(budget.usage.agent, { promptTokens: 11, completionTokens: 6, calls: 2 });
  assert.equal(budget.used, 27);
});

test("with a recorder, a call is recorded before it is sent and settled with the usage that holds it; writes stay in order", async () => {
  const writes: string[] = [];
  let stored = 0;
  const budget = new TokenBudget(100_000, zeroUsage(), {
    begin: async () => {
      writes.push("begin");
    },
    settle: async (usage, total) => {
      // A slow first write must not be overtaken by the second one.
      if (writes.filter((w) => w.startsWith("settle")).length === 0) await new Promise((r) => setTimeout(r, 20));
      stored = total;
      writes.push(`settle ${usage.agent.calls} ${total}`);
    },
  });
  const sink = budget.sink("agent");
  await sink.begin!();
  await sink.begin!();
  await Promise.all([sink({ promptTokens: 10, completionTokens: 5, calls: 1 }), sink({ promptTokens: 20, completionTokens: 0, calls: 1 })]);
  assert.deepEqual(writes, ["begin", "begin", "settle 2 35", "settle 2 35"]);
  assert.equal(stored, 35);
  // A call never begun (no begin) is only counted in memory: nothing to settle.
  await budget.sink("read")({ promptTokens: 1, completionTokens: 0, calls: 1 });
  assert.equal(writes.length, 4);
  assert.equal(budget.used, 36);
});

test("a call the run's abort cut off is stored with its prompt's estimate: every call sent is in the usage", async () => {
  const controller = new AbortController();
  const settled: number[] = [];
  const budget = new TokenBudget(100_000, zeroUsage(), { begin: async () => {}, settle: async (_usage, total) => void settled.push(total) }, controller.signal);
  const sink = budget.sink("agent");
  const prompt = "p".repeat(4_000);
  budget.guard("loop")(prompt);
  await sink.begin!();
  await sink({ promptTokens: 100, completionTokens: 10, calls: 1 });
  budget.guard("loop")(prompt);
  await sink.begin!();
  // A failure that is not an abort spent nothing (a 500, a refused connection): zero, as the provider said.
  await sink({ promptTokens: 0, completionTokens: 0, calls: 0 });
  budget.guard("loop")(prompt);
  await sink.begin!();
  controller.abort();
  await sink({ promptTokens: 0, completionTokens: 0, calls: 0 });
  assert.deepEqual(budget.usage.agent, { promptTokens: 100 + estimateTokens(prompt), completionTokens: 10, calls: 2 });
  assert.equal(settled.at(-1), budget.used);
});
