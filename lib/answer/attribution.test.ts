import assert from "node:assert/strict";
import { test } from "node:test";
import { checkReferences } from "./attribution";

const pages = [{ url: "https://a.example/p", title: "Page A", content: "Intro.\nThe model has a context   length of\n128,000 tokens. More text." }];

test("a quote that occurs in the read page (whitespace aside) is verified, with the page's title", () => {
  const { verified, problems } = checkReferences([{ url: "https://a.example/p#s", exactQuote: "context length of 128,000 tokens." }], pages);
  assert.deepEqual(problems, []);
  assert.deepEqual(verified, [{ url: "https://a.example/p", title: "Page A", exactQuote: "context length of 128,000 tokens." }]);
});

test("a quote not in the page, a page never read and a trivial quote are each a problem", () => {
  const { verified, problems } = checkReferences(
    [
      { url: "https://a.example/p", exactQuote: "context length of 256,000 tokens" },
      { url: "https://b.example/q", exactQuote: "context length of 512,000 tokens" },
      { url: "https://a.example/p", exactQuote: "The" },
    ],
    pages,
  );
  assert.equal(verified.length, 0);
  assert.equal(problems.length, 3);
  assert.match(problems[0], /does not occur/);
  assert.match(problems[1], /never read/);
  assert.match(problems[2], /too short/);
});

test("a quote attached to the wrong page, or to one never read, moves to the read page that holds it", () => {
  const two = [...pages, { url: "https://b.example/q", title: "Page B", content: "Batteries added 10 GW of storage in 2024." }];
  const { verified, problems, reattributed } = checkReferences(
    [
      { url: "https://a.example/p", exactQuote: "Batteries added 10 GW of storage" },
      { url: "https://c.example/never-read", exactQuote: "context length of 128,000 tokens" },
    ],
    two,
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(verified.map((v) => v.url), ["https://b.example/q", "https://a.example/p"]);
  assert.equal(reattributed.length, 2);
});

test("a near-verbatim quote is located and stored in the page's own words; a stock phrase or a changed figure is not", () => {
  const page = { url: "https://c.example/r", title: "Report", content: "Summary.\nAccording to the report, “grid batteries” added 10 GW of storage in 2024, a record.\nMore." };
  const { verified, problems } = checkReferences(
    [
      // Typographic quotes made plain, a comma dropped, a line break inside.
      { url: page.url, exactQuote: 'According to the report "grid batteries" added 10 GW\nof storage in 2024' },
      { url: page.url, exactQuote: "According to the report" },
      { url: page.url, exactQuote: "grid batteries added 12 GW of storage in 2024" },
    ],
    [page],
  );
  assert.deepEqual(verified, [{ url: page.url, title: "Report", exactQuote: "According to the report, “grid batteries” added 10 GW of storage in 2024" }]);
  assert.equal(problems.length, 2);
  assert.match(problems[0], /too general/);
  assert.match(problems[1], /does not occur/);
});
