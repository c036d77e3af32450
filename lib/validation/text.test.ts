import assert from "node:assert/strict";
import { describe, it, test } from "node:test";
import { storable, storableDeep, text, unstorableProblem, wordsKey } from "./text";

describe("outside text", () => {
  it("storable drops NUL characters and replaces lone surrogates, keeping pairs", () => {
    assert.equal(storable("a\u0000b\u0000"), "ab");
    assert.equal(storable("x \ud800 y \udc00"), "x \ufffd y \ufffd");
    assert.equal(storable("\ud83d\ude00\u0000"), "😀");
  });

  it("storableDeep cleans every string of a structured reply, keys included", () => {
    assert.deepEqual(storableDeep({ "k\u0000": ["a\u0000", { b: "\ud800" }], n: 1, z: null }), { k: ["a", { b: "\ufffd" }], n: 1, z: null });
  });

  it("a request's text with a NUL or a lone surrogate is refused, saying which", () => {
    assert.match(unstorableProblem("a\u0000")!, /NUL/);
    assert.match(unstorableProblem("\ud800")!, /surrogate/);
    assert.equal(unstorableProblem("plain 😀"), null);
    assert.equal(text().safeParse("a\u0000b").success, false);
    assert.equal(text().safeParse("ok").success, true);
  });
});

test("wordsKey: case, spacing and punctuation aside, ASCII or not, as NFKC with Unicode classes gives it", () => {
  const slow = (t: string) => t.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  for (const t of ["Sales rose 12%.", "  sales ROSE 12 % ", "a_b-c", "Ünïcödé — ﬁne", "東京 2024年", "", "...", "tab\tand\nline"]) assert.equal(wordsKey(t), slow(t), t);
  assert.equal(wordsKey("Sales rose 12%."), wordsKey("sales rose 12 %"));
});
