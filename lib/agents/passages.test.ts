import { test } from "node:test";
import assert from "node:assert/strict";
import { matchingPassages, rereadBudget, splitPassages } from "./passages";
import { estimateTokens } from "../ai/prompts";

const page = [
  "Grid batteries doubled in 2024.",
  "Installed grid-scale battery capacity in the Nordic region reached 4.2 GW in 2024, more than double the 1.9 GW installed a year earlier.",
  "The city has set a target of 30 percent canopy cover in every district by 2040.",
  "Planting a street tree costs the municipality about 1,800 euros including three years of watering.",
  "Batteries supplied 71 percent of the region's frequency-containment reserve during the first quarter of 2025.",
  "Subscribe to our newsletter for weekly updates.",
].join("\n\n");

test("only the passages that match the objective are sent, in page order", () => {
  const text = matchingPassages(page, "Find figures on grid battery capacity and reserves", 1_000);
  assert.match(text, /4\.2 GW/);
  assert.match(text, /frequency-containment reserve/);
  assert.doesNotMatch(text, /canopy|street tree|newsletter/);
  assert.ok(text.indexOf("4.2 GW") < text.indexOf("frequency-containment"));
  assert.match(text, /\n\[…\]\n/);
});

test("nothing matches: empty; the budget holds; long paragraphs are cut at sentence ends", () => {
  assert.equal(matchingPassages(page, "volcanic eruptions in Iceland", 1_000), "");
  const long = Array.from({ length: 60 }, (_, i) => `Battery fact number ${i} says the storage grew by ${i}.5 percent.`).join(" ");
  const parts = splitPassages(long);
  assert.ok(parts.length > 1);
  assert.ok(parts.every((p) => estimateTokens(p) <= 140 && /^Battery fact .* percent\.$/.test(p)), "whole sentences: a decimal point ends none");
  const chosen = matchingPassages(long, "battery storage growth", 300);
  assert.ok(estimateTokens(chosen) <= 310, `${estimateTokens(chosen)} tokens`);
  assert.equal(rereadBudget(6_000), 750);
  assert.equal(rereadBudget(500), 250);
});

test("a page read for several objectives in turn gives each its own passages (the page's index is kept, not the answer)", () => {
  const other = ["Street trees cool a city block by up to 2 degrees.", "The newsletter goes out on Fridays."].join("\n\n");
  for (let round = 0; round < 2; round++) {
    assert.match(matchingPassages(page, "grid battery capacity", 1_000), /4\.2 GW/);
    assert.match(matchingPassages(page, "street tree planting cost", 1_000), /1,800 euros/);
    assert.doesNotMatch(matchingPassages(page, "street tree planting cost", 1_000), /4\.2 GW/);
    assert.equal(matchingPassages(other, "street trees cooling", 1_000), "Street trees cool a city block by up to 2 degrees.");
  }
});
