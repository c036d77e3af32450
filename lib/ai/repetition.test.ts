// A reply looping at its end is kept up to the loop's first copy; anything else is no loop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withoutLoop } from "./repetition";

test("a reply that ends in one passage over and over keeps the passage once", () => {
  const body = "# Report\n\nBatteries added 40 GW in 2024 [1](https://a.example/).\n\n";
  const passage = "The trend is expected to continue as costs fall further.\n\n";
  // Cut mid-copy, as at an output limit.
  const looped = body + passage.repeat(9) + passage.slice(0, 17);
  assert.equal(withoutLoop(looped), (body + passage).trimEnd());
});

test("no loop: text without repeats, a passage twice, a short repeat", () => {
  assert.equal(withoutLoop("A report with different sentences. Each says something new. None repeats at all, really."), undefined);
  const passage = "The trend is expected to continue as costs fall further. ";
  assert.equal(withoutLoop(`Intro text here. ${passage}${passage}`), undefined);
  assert.equal(withoutLoop(`A table\n${"| - | - |\n".repeat(10)}`), undefined);
});

test("a loop whose copies count up (one number one more each time) keeps its first copy", () => {
  const body = "# Report\n\nBatteries added 40 GW in 2024 [1](https://a.example/).\n\n## Steps\n\n";
  const steps = Array.from({ length: 14 }, (_, i) => `Step ${i + 3}: Check the 2024 results against the grid operator's data.\n`).join("");
  // Cut mid-copy, as at an output limit.
  const looped = `${body}${steps}Step 17: Check the 20`;
  assert.equal(withoutLoop(looped), `${body}Step 3: Check the 2024 results against the grid operator's data.`);
  // Numbered list items the same way.
  const items = Array.from({ length: 8 }, (_, i) => `${i + 1}. Costs are expected to fall further as capacity grows.\n`).join("");
  assert.equal(withoutLoop(`Intro.\n\n${items}9. Costs are`), "Intro.\n\n1. Costs are expected to fall further as capacity grows.");
});

test("no counted loop: table rows differing in several numbers, four rows counting up, a number that jumps", () => {
  const rows = Array.from({ length: 12 }, (_, i) => `| ${2010 + i} | ${(4 + i * 0.7).toFixed(1)} GW | ${(31 - i).toFixed(0)} % |\n`).join("");
  assert.equal(withoutLoop(`| Year | Added | Share |\n| --- | --- | --- |\n${rows}`), undefined);
  const four = Array.from({ length: 4 }, (_, i) => `| ${2020 + i} | no data for this year yet |\n`).join("");
  assert.equal(withoutLoop(`| Year | Note |\n| --- | --- |\n${four}| 2024 | no da`), undefined);
  const jumps = [1, 3, 4, 8, 9, 15, 16].map((n) => `Figure ${n}: shows the added capacity by region and year.\n`).join("");
  assert.equal(withoutLoop(`Figures.\n\n${jumps}`), undefined);
});
