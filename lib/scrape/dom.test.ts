import assert from "node:assert/strict";
import { test } from "node:test";
import { parseHTML } from "linkedom";
import { childrenFirst, elementChildren } from "./dom";

test("childrenFirst: every element after all of its children; a skipped element is left out with what is under it", () => {
  const { document } = parseHTML(`<html><body><div id="a"><p id="b"><i id="c"></i></p>text<span id="d"></span></div><section id="e"><b id="f"></b></section></body></html>`);
  const ids = (els: Element[]) => els.map((el) => el.id || el.tagName.toLowerCase());
  const order = childrenFirst(document.body);
  assert.equal(order.length, 7);
  for (const [i, el] of order.entries()) for (const child of elementChildren(el)) assert.ok(order.indexOf(child) < i, `${ids([child])} before ${ids([el])}`);
  assert.equal(order.at(-1), document.body);
  assert.deepEqual(ids(childrenFirst(document.body, (el) => el.id === "a")), ["f", "e", "body"]);
});
