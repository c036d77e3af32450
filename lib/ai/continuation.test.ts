// A continuation of a reply cut at the output limit, joined to what came before it without what it repeats.
import assert from "node:assert/strict";
import { test } from "node:test";
import { joinContinued } from "./call";

test("a continuation that goes on where the reply stopped is kept whole", () => {
  assert.equal(joinContinued("Sales rose 12% in 2023 and the mark", "et grew too."), "et grew too.");
  assert.equal(joinContinued("Heat pumps work. The", " cold reduces their output."), " cold reduces their output.");
  // Nothing to compare: the reply stopped at a sentence's end.
  assert.equal(joinContinued("Heat pumps work.", "\n\n## Costs"), "\n\n## Costs");
});

test("the sentence the model restarts is not repeated, however short its cut start", () => {
  assert.equal(joinContinued("Costs fell. Sales of the mark", "Sales of the market rose."), "et rose.");
  assert.equal(joinContinued("Costs fell. Conve", "Conventional pumps lose 30%."), "ntional pumps lose 30%.");
  assert.equal(joinContinued("## Findings\n\n- Compiled 2025", "- Compiled 2025-02-14 for the committee."), "-02-14 for the committee.");
});

test("its last words repeated across a sentence's end are dropped; a short chance overlap is not", () => {
  assert.equal(joinContinued("Output fell by a third at minus 15 °C. It", "at minus 15 °C. It then recovered."), " then recovered.");
  // "the " after "the ": chance, under the minimum.
  assert.equal(joinContinued("They checked the", "the results twice."), "the results twice.");
});

test("the space at the cut is kept once: a continuation that begins with it, after a cut that ended with it or not", () => {
  assert.equal("the market ." + joinContinued("the market .", " Three firms failed."), "the market . Three firms failed.");
  assert.equal("the market . " + joinContinued("the market . ", " Three firms failed."), "the market . Three firms failed.");
  // The restarted sentence, begun with the space before it.
  assert.equal("Costs fell. Sal" + joinContinued("Costs fell. Sal", " Sales rose."), "Costs fell. Sales rose.");
});
