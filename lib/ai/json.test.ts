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
