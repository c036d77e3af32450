import assert from "node:assert/strict";
import { test } from "node:test";
import { fenceFilter, unwrapFence, unwrapReport } from "./fence";

const REPORT = "# Grid storage\n\nPrices fell [1](https://a.example/p).\n\n```python\nprint(1)\n```\n\n## Open questions\n\n- Which?";

/** The filter's output for `text` cut into pieces of `size` characters. */
function streamed(text: string, size: number): string {
  const f = fenceFilter();
  let out = "";
  for (let i = 0; i < text.length; i += size) out += f.push(text.slice(i, i + size));
  return out + f.end();
}

test("a reply wrapped whole in a Markdown fence is unwrapped, given whole or streamed in any pieces", () => {
  for (const wrapped of [`\`\`\`markdown\n${REPORT}\n\`\`\``, `\n\`\`\`md\n${REPORT}\n\`\`\`\n\n`, `\`\`\`\n${REPORT}\n\`\`\``, `~~~markdown\n${REPORT}\n~~~`]) {
    assert.equal(unwrapFence(wrapped), REPORT, JSON.stringify(wrapped.slice(0, 12)));
    for (const size of [1, 2, 3, 5, 7, 64, 10_000]) assert.equal(streamed(wrapped, size).trim(), REPORT, `pieces of ${size}: ${JSON.stringify(wrapped.slice(0, 12))}`);
  }
});

test("a reply not wrapped whole is handed on as it is: its own code blocks, another language's fence, an unclosed fence", () => {
  const unclosed = `\`\`\`markdown\n${REPORT}`;
  for (const text of [REPORT, "```python\nprint(1)\n```", `Intro.\n\`\`\`markdown\n${REPORT}\n\`\`\``, "`code` first.", "```"]) {
    assert.equal(unwrapFence(text), text);
    for (const size of [1, 3, 64]) assert.equal(streamed(text, size), text, `pieces of ${size}: ${JSON.stringify(text.slice(0, 12))}`);
  }
  // A fence opened and never closed (a reply cut short): the opening line goes, the rest stays.
  assert.equal(unwrapFence(unclosed), REPORT);
  assert.equal(streamed(unclosed, 4), REPORT);
});

test("streamed, a wrapped reply is handed on as it comes: only its first line and a possible closing fence wait", () => {
  const f = fenceFilter();
  assert.equal(f.push("```mark"), "");
  assert.equal(f.push("down\n# Title\nLine one"), "# Title\nLine one");
  assert.equal(f.push("\n``"), "");
  assert.equal(f.push("`python\nx\n```\nmore"), "\n```python\nx\n```\nmore");
  assert.equal(f.push("\n```\n"), "");
  assert.equal(f.end(), "");
});

test("a report's chat around it goes: an opening line before its title or fence, a closing line after it, then the fence", () => {
  const chatty = [
    `Sure! Here is the research report you asked for:\n\n${REPORT}\n\nLet me know if you need anything else!`,
    `Here's the report:\n\n\`\`\`markdown\n${REPORT}\n\`\`\`\n\nI hope this helps.`,
    `Below is the report.\n# Grid storage\n\nPrices fell [1](https://a.example/p).\n\n\`\`\`python\nprint(1)\n\`\`\`\n\n## Open questions\n\n- Which?`,
  ];
  for (const text of chatty) assert.equal(unwrapReport(text).trim(), REPORT, JSON.stringify(text.slice(0, 20)));
  // What is the report's stays: a first paragraph that is content, a last line that cites, a closing question of the report's own.
  const own = [
    `Grid storage grew fastest in 2024 [1](https://a.example/p):\n\n${REPORT}`,
    `${REPORT}\n\nFeel free to compare [1](https://a.example/p).`,
    "# Title\n\nText.\n\n## Open questions\n\n- Would you like a cheaper grid?",
  ];
  for (const text of own) assert.equal(unwrapReport(text), text, JSON.stringify(text.slice(0, 20)));
});
