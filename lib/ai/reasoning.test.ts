import assert from "node:assert/strict";
import { test } from "node:test";
import { reasoningFilter, stripReasoning } from "./reasoning";

test("reasoning blocks are removed, with braces in them", () => {
  assert.equal(stripReasoning('<think>I will reply {"queries": [1]} now.</think>\n\n{"queries": []}'), '{"queries": []}');
  assert.equal(stripReasoning("<THINKING>plan</THINKING># Report\n<reasoning>x</reasoning>Text"), "# Report\nText");
  assert.equal(stripReasoning("no reasoning here <b>ok</b>"), "no reasoning here <b>ok</b>");
});

test("an unclosed block is dropped to the end; a reply that starts inside a block loses what precedes its closing tag", () => {
  assert.equal(stripReasoning("Answer first. <think>cut while thinking {"), "Answer first. ");
  assert.equal(stripReasoning('the template opened the block {"a"}\n</think>\n{"a": 1}'), '{"a": 1}');
});

test("a streamed reply's reasoning is held back even when its tags are split across deltas", () => {
  const text = '<think>Plan: {"x": 1} then write.</think>\n\n# Title\nBody with a < sign and <b>bold</b>.';
  for (const size of [1, 2, 3, 5, 8, 13]) {
    const filter = reasoningFilter();
    let out = "";
    for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
    out += filter.end();
    assert.equal(out, "# Title\nBody with a < sign and <b>bold</b>.", `delta size ${size}`);
  }
});
