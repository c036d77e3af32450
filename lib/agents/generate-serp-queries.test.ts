import { test } from "node:test";
import assert from "node:assert/strict";
import { renderChain, type ChainLink } from "./generate-serp-queries";
import { estimateTokens } from "../ai/prompts";

const link = (name: string, facts: number): ChainLink => ({
  query: `query ${name}`,
  objective: `objective ${name}`,
  learnings: Array.from({ length: facts }, (_, i) => ({ content: `${name} fact ${i} `.repeat(10), url: `https://example.org/${name}/${i}` })),
});

test("the whole chain is kept when it fits", () => {
  const { text, trimmed } = renderChain([link("root", 2), link("parent", 2)], 5_000);
  assert.equal(trimmed, 0);
  assert.match(text, /query root/);
  assert.match(text, /query parent/);
});

test("the farthest ancestors are trimmed first and the budget holds", () => {
  const chain = [link("root", 40), link("middle", 40), link("parent", 40)];
  const budget = 2_500;
  const { text, trimmed } = renderChain(chain, budget);
  assert.ok(trimmed >= 1);
  assert.ok(estimateTokens(text) <= budget * 1.05, `${estimateTokens(text)} tokens`);
  // The parent's learnings are complete; the root's are gone or trimmed.
  assert.match(text, /parent fact 39/);
  assert.doesNotMatch(text, /root fact 39/);
});
