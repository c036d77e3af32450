import { test } from "node:test";
import assert from "node:assert/strict";
import { extractJson } from "./json";

test("parses plain JSON", () => {
  assert.deepEqual(extractJson('{"a":1}'), { a: 1 });
});

test("recovers JSON from code fences with prose around them", () => {
  const reply = 'Sure! Here is the JSON you asked for:\n```json\n{"questions": ["Which region?"]}\n```\nLet me know if you need more.';
  assert.deepEqual(extractJson(reply), { questions: ["Which region?"] });
});

test("recovers an object embedded in prose, and trailing commas", () => {
  assert.deepEqual(extractJson('The answer is {"items": [{"content": "x"},],} as requested.'), { items: [{ content: "x" }] });
});

test("throws on text with no JSON", () => {
  assert.throws(() => extractJson("I cannot help with that."), SyntaxError);
  assert.throws(() => extractJson('{"truncated": ['), SyntaxError);
});

test("JSON written loosely, as models without a grammar write it, is read", () => {
  // Line breaks and tabs inside strings, a comment, trailing commas.
  assert.deepEqual(extractJson('{\n  // the queries\n  "queries": [\n    {"query": "heat pumps", "researchGoal": "Costs\n\tand savings",},\n  ],\n}'), {
    queries: [{ query: "heat pumps", researchGoal: "Costs\n\tand savings" }],
  });
  // Bare keys, single-quoted strings (with a double quote and an escaped apostrophe inside), a block comment.
  assert.deepEqual(extractJson("{questions: ['Which \"region\"?', 'What\\'s the budget?'], /* two */ count: 2}"), { questions: ['Which "region"?', "What's the budget?"], count: 2 });
  // Python's literals, in a fence marked python.
  assert.deepEqual(extractJson('```python\n{"factual": True, "note": None, "done": False}\n```'), { factual: true, note: null, done: false });
  // What looks like markup inside a string stays as written.
  assert.deepEqual(extractJson('{"a": "x // not a comment, ]", "b": "it\'s True",}'), { a: "x // not a comment, ]", b: "it's True" });
});

test("strictJson leaves what it cannot read for JSON.parse to reject", () => {
  assert.throws(() => extractJson('{"a": maybe}'), SyntaxError);
  assert.throws(() => extractJson('{"a": "never closed'), SyntaxError);
});

test("several values in a row (JSON Lines, or objects with commas and no list around them) are read as their list", () => {
  assert.deepEqual(extractJson('{"query": "a"}\n{"query": "b"}\n'), [{ query: "a" }, { query: "b" }]);
  assert.deepEqual(extractJson('Here they are:\n{"query": "a, {b}"},\n{"query": "c\\" }"}\nHope this helps!'), [{ query: "a, {b}" }, { query: 'c" }' }]);
  // One value is that value; a value never closed is no sequence (the whole value before it is read, as before).
  assert.deepEqual(extractJson('{"query": "a"}'), { query: "a" });
  assert.deepEqual(extractJson('{"query": "a"}\n{"query": "b"'), { query: "a" });
  assert.throws(() => extractJson('{"query": "a"\n{"query": "b"'), SyntaxError);
});
