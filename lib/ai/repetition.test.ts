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
