// The numbers-from-results check: figures as written, rounded or formatted are found in the results;
// anything else is reported, and references or identifiers are not taken for figures.
import assert from "node:assert/strict";
import { test } from "node:test";
import { numbersIn, unsupportedNumbers } from "./numbers";

const results = [
  { rows: [["north", 1234, 12.3456], ["south", 87, 0.5]], rowCount: 2 },
  { rows: [["total", 1321, "up 4.5% on 2023"]], rowCount: 1 },
];

test("figures are read as written: thousands separators, decimals, negatives, percentages", () => {
  assert.deepEqual(numbersIn("North sold 1,234 units (12.35 each), -3 returns, 4.5% growth").map((n) => n.value), [1234, 12.35, -3, 4.5]);
});

test("references and identifiers are not figures", () => {
  assert.deepEqual(numbersIn("See [q2] and [ana-1-2]; Q3 sales in region2, task ana-1-1, the 2nd row"), []);
});

test("a figure is supported by a cell, its rounding, a number in a text cell, or a row count", () => {
  assert.deepEqual(unsupportedNumbers("North: 1,234 units at 12.35 (12.3) [q1]; 2 regions; total 1321, up 4.5%; 0.5", results), []);
});

test("a figure no result holds is reported, once", () => {
  assert.deepEqual(unsupportedNumbers("North sold 1,240 units, 99 more than south; 1,240 is a record", results), ["1,240", "99"]);
  // 12.4 is not 12.3456 at one decimal.
  assert.deepEqual(unsupportedNumbers("about 12.4 each", results), ["12.4"]);
  // Rounding to a whole number is not allowed to move a figure by more than 1%.
  assert.deepEqual(unsupportedNumbers("about 12 each, 5% up", results), ["12", "5"]);
});

test("a number the objective states is not a claim of the output", () => {
  assert.deepEqual(unsupportedNumbers("The top 5 regions by units: north 1234", results, "Rank the top 5 regions"), []);
  assert.deepEqual(unsupportedNumbers("The top 5 regions by units: north 1234", results), ["5"]);
});
