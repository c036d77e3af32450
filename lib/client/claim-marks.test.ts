import assert from "node:assert/strict";
import { test } from "node:test";
import { locateSentence } from "./claim-marks";

test("a claim is found across text pieces with its citation markers left out", () => {
  const pieces = [
    { text: "Prices fell to ", skip: false },
    { text: "139 dollars", skip: false },
    { text: " per kWh ", skip: false },
    { text: "[1]", skip: true },
    { text: ". Capacity doubled.", skip: false },
  ];
  const found = locateSentence(pieces, "Prices fell to 139 dollars per kWh.");
  assert.deepEqual(found, { start: { piece: 0, offset: 0 }, end: { piece: 4, offset: 0 } });
  assert.deepEqual(locateSentence(pieces, "Capacity   doubled."), { start: { piece: 4, offset: 2 }, end: { piece: 4, offset: 18 } });
  assert.equal(locateSentence(pieces, "Output fell by 95% in one year."), null);
  assert.equal(locateSentence(pieces, "Prices"), null, "too short to place");
});

test("a table row's claim ('cell | cell') is found across its cells", () => {
  const pieces = [
    { text: "LFP", skip: false },
    { text: "\n", skip: false },
    { text: "Pack prices fell 20% in 2023", skip: false },
    { text: "1", skip: true },
  ];
  assert.deepEqual(locateSentence(pieces, "LFP | Pack prices fell 20% in 2023"), { start: { piece: 0, offset: 0 }, end: { piece: 2, offset: 27 } });
});
