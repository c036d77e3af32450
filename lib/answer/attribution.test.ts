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
      { url: "https://b.example/q", exactQuote: "context length of 128,000 tokens" },
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
