import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseHTML } from "linkedom";
import { Texts } from "./boilerplate";

const norm = (text: string) => text.replace(/\s+/g, " ").trim();

function elements(root: Element): Element[] {
  return [root, ...root.querySelectorAll("*")];
}

/** Every element's text from the cache, against norm(textContent) read from the DOM. */
function assertAllMatch(body: Element, texts: Texts): void {
  assert.ok(elements(body).length > 12, "the page's elements are all there");
  for (const el of elements(body)) assert.equal(texts.text(el), norm(el.textContent ?? ""), `<${el.tagName.toLowerCase()}> ${el.outerHTML.slice(0, 80)}`);
}

// Whitespace where the joins are delicate: runs split across text nodes and elements, text nodes of spaces
// alone, tabs, newlines and no-break spaces, an element that begins or ends with space, adjacent words with no
// space between their elements, empty elements, and script text (textContent includes it).
const PAGE = `<!doctype html><html><body>
  <div id="a">  Lead <b>bold</b><i>italic</i>   tail
    <span> </span><span></span>x<em>\t y \n</em>z\u00a0 <u>\u00a0nb</u>
  </div>
  <p>one<span> two </span>three</p>
  <p>a<span> <i></i></span>b</p>
  <p><span>   </span></p>
  <section><h2>Title</h2>
    <ul><li> a </li><li>b</li><li>\n</li></ul>
    <script>var  x = 1;</script>
  </section>
  <p></p>
</body></html>`;

describe("normalised element texts (Texts)", () => {
  it("equal norm(textContent) for every element, asked for in any order", () => {
    for (const order of ["top-down", "bottom-up"] as const) {
      const { document } = parseHTML(PAGE);
      const texts = new Texts();
      const all = elements(document.body);
      for (const el of order === "top-down" ? all : [...all].reverse()) texts.text(el);
      assertAllMatch(document.body, texts);
    }
  });

  it("stay right after removals: a removed element's ancestors are read anew", () => {
    const { document } = parseHTML(PAGE);
    const texts = new Texts();
    texts.text(document.body);
    for (const selector of ["#a > b", "p > span", "li", "#a em"]) {
      const el = document.querySelector(selector)!;
      texts.removed(el);
      el.remove();
      assertAllMatch(document.body, texts);
    }
  });
});
