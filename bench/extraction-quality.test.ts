// Extraction quality: the scorer computes Zyte's shingle metric, the labelled pages are sound, and the product's
// extractor stays above its floor on them (tuned and held-out pages separately), so a regression fails here.
// Run: NODE_ENV=test node --import tsx --test bench/extraction-quality.test.ts
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHTML } from "linkedom";
import { aggregate, loadLabelled, precisionOf, productExtract, recallOf, scorePages, shingleMatch, tokenize } from "./extraction-quality";

describe("shingle metric (as Zyte's evaluate.py)", () => {
  test("tokens are runs of letters, digits and underscores in any script", () => {
    assert.deepEqual(tokenize("Grüße, 東京 — £4.2bn (snake_case)"), ["Grüße", "東京", "4", "2bn", "snake_case"]);
  });

  test("identical texts match fully; spacing and punctuation between tokens do not count", () => {
    const counts = shingleMatch("One two three four five.", "One  two,\nthree four — five");
    assert.deepEqual(counts, [1, 0, 0]);
    assert.equal(precisionOf(counts), 1);
    assert.equal(recallOf(counts), 1);
  });

  test("missing and extra shingles, normalised per page", () => {
    // truth: 3 shingles (a b c d, b c d e, c d e f); prediction: a b c d only → tp 1, fn 2.
    const partial = shingleMatch("a b c d e f", "a b c d");
    assert.deepEqual(partial, [1 / 3, 0, 2 / 3]);
    assert.equal(precisionOf(partial), 1);
    assert.ok(Math.abs(recallOf(partial) - 1 / 3) < 1e-12);
    // prediction adds a byline in front: 3 extra shingles (x y a b, y a b c... and "x y a b" variants).
    const noisy = shingleMatch("a b c d e f", "x y a b c d e f");
    assert.equal(recallOf(noisy), 1);
    assert.ok(Math.abs(precisionOf(noisy) - 3 / 5) < 1e-12);
    // A repeated block counts twice: the second copy is a false positive.
    const repeated = shingleMatch("p q r s", "p q r s p q r s");
    assert.ok(precisionOf(repeated) < 1 && recallOf(repeated) === 1);
  });

  test("short and empty texts, as evaluate.py", () => {
    assert.deepEqual(shingleMatch("two words", "two words"), [1, 0, 0]); // one shorter shingle
    assert.deepEqual(shingleMatch("", ""), [0, 0, 0]);
    assert.deepEqual(shingleMatch("a b c d", ""), [0, 0, 1]);
    // Pages with nothing predicted are left out of precision, not out of recall.
    const s = aggregate([[1, 0, 0], [0, 0, 1]]);
    assert.equal(s.precision, 1);
    assert.equal(s.recall, 0.5);
    assert.ok(Math.abs(s.f1 - 2 / 3) < 1e-12);
  });
});

describe("labelled pages", () => {
  const pages = loadLabelled();

  test("at least 30 pages of several kinds, with a held-out share", () => {
    assert.ok(pages.length >= 30, `${pages.length} pages`);
    assert.ok(new Set(pages.map((p) => p.style)).size >= 6);
    const heldOut = pages.filter((p) => p.heldOut).length;
    assert.ok(heldOut >= 10 && heldOut < pages.length / 2, `${heldOut} held out`);
  });

  test("every page's ground truth is text of that page", () => {
    for (const page of pages) {
      // A space between tags, so that table cells do not run together in textContent.
      const { document } = parseHTML(page.html.replace(/></g, "> <"));
      const words = new Map<string, number>();
      for (const t of tokenize(document.body?.textContent ?? "")) words.set(t, (words.get(t) ?? 0) + 1);
      const truth = tokenize(page.truth);
      assert.ok(truth.length >= 150, `${page.name}: only ${truth.length} words of truth`);
      const missing = truth.filter((t) => !words.has(t));
      assert.ok(missing.length <= truth.length * 0.02, `${page.name}: truth words not in the page: ${missing.slice(0, 10).join(", ")}`);
    }
  });
});

describe("the product's extractor on the labelled pages", () => {
  const pages = loadLabelled();
  const result = scorePages(pages, productExtract);
  const show = (s: { f1: number; precision: number; recall: number }) => `F1 ${s.f1.toFixed(3)}, precision ${s.precision.toFixed(3)}, recall ${s.recall.toFixed(3)}`;

  // The target is F1 ≥ 0.97 with recall ≥ 0.985; the floors sit below today's figures (bench/README.md) so that
  // a regression fails, not a page's worth of noise.
  test("tuned pages: F1 ≥ 0.985, precision ≥ 0.98 and recall ≥ 0.985", () => {
    assert.ok(result.tuned.f1 >= 0.985 && result.tuned.precision >= 0.98 && result.tuned.recall >= 0.985, show(result.tuned));
  });

  test("held-out pages: F1 ≥ 0.97 and recall ≥ 0.98", () => {
    assert.ok(result.heldOut.f1 >= 0.97 && result.heldOut.recall >= 0.98, show(result.heldOut));
  });

  test("no page loses more than a tenth of its text", () => {
    const low = result.perPage.filter((p) => p.recall < 0.9).map((p) => `${p.name} ${p.recall.toFixed(3)}`);
    assert.deepEqual(low, []);
  });
});
