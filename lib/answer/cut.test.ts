import assert from "node:assert/strict";
import { test } from "node:test";
import { cutAtStop, toSentenceEnd } from "./cut";
import { withCitationMarkers } from "./citations";

test("stop: the answer ends before the first stop sequence found", () => {
  assert.deepEqual(cutAtStop("One. Two. END Three.", ["Three", "END"]), { text: "One. Two. ", stopped: true });
  assert.deepEqual(cutAtStop("One.", ["x"]), { text: "One.", stopped: false });
  assert.deepEqual(cutAtStop("One.", undefined), { text: "One.", stopped: false });
});

test("a cut answer goes back to its last whole sentence: no cut word, no cut marker", () => {
  assert.equal(toSentenceEnd("Batteries added 69 GW in 2024.[^1] China led with more than ha"), "Batteries added 69 GW in 2024.[^1]");
  assert.equal(toSentenceEnd("Batteries added 69 GW in 2024.[^"), "Batteries added 69 GW in 2024.");
  assert.equal(toSentenceEnd("First line\nSecond li"), "First line");
  assert.equal(toSentenceEnd("电池储能增长很快。中国新增"), "电池储能增长很快。");
  assert.equal(toSentenceEnd("Complete sentence."), "Complete sentence.");
  assert.equal(toSentenceEnd("No sentence end in this cut tex"), "No sentence end in this cut…");
  assert.equal(toSentenceEnd('He said "done." Then'), 'He said "done."');
  // Markers placed after the cut land after whole sentences.
  const cut = toSentenceEnd("Storage grew. Batteries added 10 GW in 2024. Then prices fe");
  assert.equal(withCitationMarkers(cut, [{ exactQuote: "Batteries added 10 GW" }]), "Storage grew. Batteries added 10 GW in 2024.[^1]");
});
