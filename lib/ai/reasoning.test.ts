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

/** The text through a fresh reasoning filter in deltas of `size` characters. */
function streamed(text: string, size: number): string {
  const filter = reasoningFilter();
  let out = "";
  for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
  return out + filter.end();
}

test("a streamed reply's reasoning is held back even when its tags are split across deltas", () => {
  const text = '<think>Plan: {"x": 1} then write.</think>\n\n# Title\nBody with a < sign and <b>bold</b>.';
  for (const size of [1, 2, 3, 5, 8, 13]) assert.equal(streamed(text, size), "# Title\nBody with a < sign and <b>bold</b>.", `delta size ${size}`);
});

test("Magistral's [THINK]…[/THINK] and Seed-OSS's <seed:think> are reasoning too, whole or streamed in any deltas; a citation is not", () => {
  assert.equal(stripReasoning('[THINK]Cite {"S1"} first.[/THINK]\n# Report\nPrices fell [S1].'), "# Report\nPrices fell [S1].");
  assert.equal(stripReasoning("<seed:think>plan {x}</seed:think>{\"a\": 1}"), '{"a": 1}');
  const text = '[THINK]Plan: {"x": 1} then [S2].[/THINK]\n\n# Title\nPrices fell 20% [S2] and [THINK is no tag.';
  for (const size of [1, 2, 3, 5, 8, 13]) assert.equal(streamed(text, size), "# Title\nPrices fell 20% [S2] and [THINK is no tag.", `delta size ${size}`);
});

const HARMONY = '<|channel|>analysis<|message|>The user wants JSON like {"a": 1}. quokka<|end|><|start|>assistant<|channel|>final <|constrain|>json<|message|>{"a": 2}<|return|>';

test("a harmony reply (gpt-oss without its parser) is its final channel; end-of-turn tokens end a reply", () => {
  assert.equal(stripReasoning(HARMONY), '{"a": 2}');
  assert.equal(stripReasoning("<|start|>assistant<|channel|>final<|message|>Plain report.<|end|>"), "Plain report.");
  assert.equal(stripReasoning("<|channel|>analysis<|message|>Still thinking about {braces"), "", "only the analysis channel: no reply yet");
  assert.equal(stripReasoning("The report.<|im_end|>\n<|im_start|>user"), "The report.");
  assert.equal(stripReasoning("The report.</s>"), "The report.");
  assert.equal(stripReasoning("Prices <s>rose</s> fell 3%.</s>\n"), "Prices <s>rose</s> fell 3%.", "only a last </s> ends the reply");
  assert.equal(stripReasoning("Text that names <|channel|> in passing stays."), "Text that names <|channel|> in passing stays.");
});

test("a streamed harmony reply is held back until its final channel, whatever the deltas' boundaries", () => {
  const text = `${HARMONY.replace('{"a": 2}', "# Report\n\nGrowth was 12%.")}`;
  for (const size of [1, 2, 3, 5, 7, 13, 64]) {
    const filter = reasoningFilter();
    let out = "";
    for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
    out += filter.end();
    assert.equal(out, "# Report\n\nGrowth was 12%.", `deltas of ${size}`);
  }
  const plain = reasoningFilter();
  let out = "";
  for (const delta of ["<", "b>Bold</b> text", " and <|eot", "_id|> dropped"]) out += plain.push(delta);
  assert.equal(out + plain.end(), "<b>Bold</b> text and ");
  for (const size of [1, 2, 3, 7]) {
    const text = "Prices <s>rose</s> fell 3%.</s>";
    const filter = reasoningFilter();
    let streamed = "";
    for (let i = 0; i < text.length; i += size) streamed += filter.push(text.slice(i, i + size));
    assert.equal(streamed + filter.end(), "Prices <s>rose</s> fell 3%.", `strikethrough kept, the last </s> dropped (deltas of ${size})`);
  }
});

test("a reply's leading white space is dropped as it streams, a continuation's is kept (it is the space at the cut)", () => {
  const run = (filter: ReturnType<typeof reasoningFilter>) => filter.push(" Three firms") + filter.push(" failed.") + filter.end();
  assert.equal(run(reasoningFilter()), "Three firms failed.");
  assert.equal(run(reasoningFilter({ continuation: true })), " Three firms failed.");
});
