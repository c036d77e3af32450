import { test } from "node:test";
import assert from "node:assert/strict";
import { citationSpans, sentencesOf, withCitationMarkers } from "./citations";

const ref = (url: string, exactQuote: string) => ({ url, title: url, exactQuote });

test("sentences keep their offsets; a decimal point is no boundary", () => {
  const text = "Grid batteries added 3.5 GW. Prices fell!\nA new line";
  assert.deepEqual(
    sentencesOf(text).map((s) => text.slice(s.start, s.end)),
    ["Grid batteries added 3.5 GW.", "Prices fell!", "A new line"],
  );
});

test("a marker goes after the sentence that shares the most words with its quote", () => {
  const answer = "Storage grew fast in 2024. Battery prices fell by a fifth over the year.";
  const refs = [ref("https://a", "battery pack prices fell by a fifth in 2024"), ref("https://b", "storage additions grew fast")];
  assert.equal(withCitationMarkers(answer, refs), "Storage grew fast in 2024.[^2] Battery prices fell by a fifth over the year.[^1]");
});

test("the model's markers for existing references stay; dangling ones go; no reference, no marker", () => {
  assert.equal(withCitationMarkers("One.[^1] Two.[^7]", [ref("https://a", "one thing here")]), "One.[^1] Two.");
  assert.equal(withCitationMarkers("Plain answer.", []), "Plain answer.");
});

test("an annotation spans the sentence that cites it, not the whole answer", () => {
  const answer = "Storage grew fast in 2024.[^2] Battery prices fell by a fifth.[^1]";
  const spans = citationSpans({ answer, references: [ref("https://a", "q"), ref("https://b", "q")] });
  assert.equal(answer.slice(spans[0].start, spans[0].end), "Battery prices fell by a fifth.[^1]");
  assert.equal(answer.slice(spans[1].start, spans[1].end), "Storage grew fast in 2024.[^2]");
});
