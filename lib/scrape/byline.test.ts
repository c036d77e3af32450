// The extractor's byline test against Readability's own: the same answer on every element of the fixture pages.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { isValidByline } from "./html";

const FIXTURES = [path.join(process.cwd(), "bench", "fixtures", "html"), path.join(process.cwd(), "bench", "fixtures", "labelled", "pages")];

test("isValidByline answers as Readability's _isValidByline on every element of the fixture pages", () => {
  const original = (Readability.prototype as unknown as { _isValidByline: (node: Element, matchString: string) => boolean })._isValidByline;
  assert.equal(typeof original, "function", "Readability still has the method the extractor replaces");
  const context = { REGEXPS: (Readability.prototype as unknown as { REGEXPS: { byline: RegExp } }).REGEXPS };
  let elements = 0;
  let bylines = 0;
  for (const dir of FIXTURES) {
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".html"))) {
      const { document } = parseHTML(fs.readFileSync(path.join(dir, name), "utf8"));
      for (const el of document.querySelectorAll("*") as unknown as Element[]) {
        const matchString = `${el.className} ${el.id}`;
        const expected = original.call(context, el, matchString);
        assert.equal(isValidByline.call(context, el, matchString), expected, `${name}: <${el.tagName.toLowerCase()} class="${el.className}">`);
        elements++;
        if (expected) bylines++;
      }
    }
  }
  assert.ok(elements > 10_000 && bylines > 20, `compared on ${elements} elements, ${bylines} of them bylines`);
});
