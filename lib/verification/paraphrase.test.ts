// A quote reworded or reordered is found where the page says it (in the page's words); one whose
// figures or most of whose key terms the page does not hold is not.
import assert from "node:assert/strict";
import { test } from "node:test";
import { citedElsewhere, locateParaphrase } from "./paraphrase";
import { recited } from "./repair";
import { claimsOf } from "./claims";

const PAGE = [
  "Storage markets grew quickly.",
  "Battery pack prices fell 14 percent to 139 dollars per kilowatt-hour in 2023, the survey of manufacturers found.",
  "The survey covered 42 manufacturers in Asia and Europe. Its authors expect further declines.",
  "电池价格在2023年下降了百分之十四。",
].join(" ");

test("a quote with its clauses in another order is the page's sentence, in the page's words", () => {
  const found = locateParaphrase("In 2023, the survey of manufacturers found that battery pack prices fell 14 percent to 139 dollars per kilowatt-hour", PAGE);
  assert.equal(found?.text, "Battery pack prices fell 14 percent to 139 dollars per kilowatt-hour in 2023, the survey of manufacturers found.");
  assert.equal(PAGE.slice(found!.start, found!.end), found!.text);
});

test("a quote spanning two sentences is both", () => {
  const found = locateParaphrase("Covering 42 manufacturers in Europe and Asia, the survey's authors expect declines to go further", PAGE);
  assert.equal(found?.text, "The survey covered 42 manufacturers in Asia and Europe. Its authors expect further declines.");
});

test("no paraphrase: another figure, too few of its key terms, too short a quote", () => {
  assert.equal(locateParaphrase("In 2023, battery pack prices fell 41 percent to 139 dollars per kilowatt-hour", PAGE), undefined, "41 is not 14");
  assert.equal(locateParaphrase("Battery pack prices rose sharply across Africa and South America as lithium supplies tightened", PAGE), undefined);
  assert.equal(locateParaphrase("prices fell", PAGE), undefined);
});

test("a sentence cited to a source that does not say it: another source that says it (the first in order), or none", () => {
  const sources = new Map([
    ["https://a.example/prices", { text: PAGE }],
    ["https://b.example/grid", { text: "Grid-scale storage capacity in Europe doubled between 2021 and 2023 to reach 40 gigawatts." }],
    ["https://c.example/again", { text: "Recap: grid-scale storage capacity in Europe doubled between 2021 and 2023, to reach 40 gigawatts." }],
  ]);
  const sentence = "Grid-scale storage capacity in Europe doubled to 40 gigawatts between 2021 and 2023.";
  assert.equal(citedElsewhere(sentence, ["https://a.example/prices"], sources), "https://b.example/grid");
  assert.equal(citedElsewhere(sentence, ["https://b.example/grid"], sources), "https://c.example/again", "never the source it cites");
  assert.equal(citedElsewhere("Grid-scale storage capacity in Europe doubled to 50 gigawatts.", ["https://a.example/prices"], sources), undefined, "another figure: no source says it");
  assert.equal(citedElsewhere("Storage grew.", [], sources), undefined, "too little to recognise");
});

test("a re-cited sentence keeps its words; its links give way to one link to the source that says it", () => {
  const claim = claimsOf(`Capacity doubled to 40 GW in Europe [1](https://a.example/x)[2](https://d.example/y).`)[0];
  assert.equal(recited(claim, "https://b.example/grid"), "Capacity doubled to 40 GW in Europe [0](https://b.example/grid).");
});
