// The world view stays within its token budget however large the world state grows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { estimateTokens } from "../ai/prompts";
import { renderWorldView, type WorldView } from "./render";

function view(levels: number): WorldView {
  return {
    objective: "Grid-scale storage",
    currentObjective: "Costs of sodium-ion",
    evolvingObjective: "From chemistry to costs",
    hypothesis: "Sodium-ion wins on cost by 2030",
    userMessage: "Focus on costs",
    tasks: Array.from({ length: levels * 10 }, (_, i) => ({ key: `lit-${i}-1`, level: i, type: "LITERATURE", status: "completed", objective: `task ${i}`, output: "finding ".repeat(400), error: null })),
    discoveries: Array.from({ length: levels * 5 }, (_, i) => ({ key: `disc-${i}`, claim: "claim ".repeat(50), confidence: "high", status: "active" })),
    keyInsights: Array.from({ length: levels * 3 }, (_, i) => `insight ${i} `.repeat(20)),
    openQuestions: ["What about lithium prices?"],
    datasets: [],
    methodology: "Literature review",
    level: levels,
  };
}

test("the rendered view stays within the budget and keeps the objective first", () => {
  for (const levels of [1, 5, 20, 100]) {
    const text = renderWorldView(view(levels), 2_000);
    assert.ok(estimateTokens(text) <= 2_000, `${levels} levels: ${estimateTokens(text)} tokens`);
    assert.ok(text.startsWith("<objective>") && text.includes("Grid-scale storage"));
    assert.ok(text.includes("Focus on costs"), "the user's message is kept");
  }
});

test("a small state is rendered whole", () => {
  const small = { ...view(1), tasks: [], discoveries: [{ key: "disc-1", claim: "short", confidence: "low", status: "active" }], keyInsights: ["one"] };
  const text = renderWorldView(small, 6_000);
  assert.ok(text.includes("[disc-1] (active, low) short") && text.includes("- one") && text.includes("Literature review"));
});
