import assert from "node:assert/strict";
import { test } from "node:test";
import { knowledgeBlock } from "./prompt";

test("knowledge keeps the newest items within the budget, shown oldest first, pages with their URL", () => {
  const items = [
    { question: "q", answer: "old ".repeat(400), kind: "page" as const, url: "https://a.example/", title: "A" },
    { question: "q1", answer: "a1", kind: "answer" as const },
    { question: "q", answer: "do not hedge", kind: "lesson" as const },
  ];
  const all = knowledgeBlock(items, 10_000);
  assert.match(all, /^<knowledge>\n<page url="https:\/\/a.example\/" title="A">/);
  assert.ok(all.indexOf("<page") < all.indexOf("<qa>") && all.indexOf("<qa>") < all.indexOf("<lesson>"));
  assert.ok(all.includes("</page>"), "inner closing tags are not escaped twice");
  const small = knowledgeBlock(items, 60);
  assert.ok(!small.includes("<page"));
  assert.ok(small.includes("do not hedge"));
  assert.equal(knowledgeBlock([], 100), "");
  // With the pages' handles, a page is shown with the one a reference names it by.
  assert.match(knowledgeBlock(items, 10_000, [{ handle: "P1", value: { url: "https://a.example/" } }]), /^<knowledge>\n<page id="P1" url="https:\/\/a.example\/" title="A">/);
});
