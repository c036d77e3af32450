// A server that cuts prompts to its context window (Ollama's num_ctx) is noticed from the prompt tokens
// it counts: a long prompt counted at under half its estimate was cut; short prompts are never judged;
// a longer prompt counted whole clears the notice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { notePromptTokens, promptCutAnywhere } from "./context-window";

delete process.env.REDIS_URL;

test("a long prompt counted at under half its size was cut; short ones and whole counts say nothing", async () => {
  const warn = console.warn;
  const warned: string[] = [];
  console.warn = (line: string) => void warned.push(line);
  try {
    notePromptTokens(4_000, 100); // ~1,000 tokens: too short to judge
    notePromptTokens(40_000, 9_000); // ~10,000 tokens counted as 9,000: whole
    assert.equal((await promptCutAnywhere()), null);
    notePromptTokens(40_000, 4_096); // ~10,000 tokens counted as 4,096: cut
    assert.deepEqual((await promptCutAnywhere()), { counted: 4_096, estimated: 10_000, suggested: 16_384 });
    notePromptTokens(80_000, 4_096);
    assert.equal((await promptCutAnywhere())?.estimated, 20_000, "the largest cut prompt is kept");
    assert.equal((await promptCutAnywhere())?.suggested, 32_768);
    assert.equal(warned.length, 1, "the log says so once");
    assert.match(warned[0], /counted 4096 prompt tokens for a prompt of about 10000.*OLLAMA_CONTEXT_LENGTH.*16384/);
    notePromptTokens(48_000, 11_000); // ~12,000 tokens counted whole: the context was made larger
    assert.equal((await promptCutAnywhere()), null);
  } finally {
    console.warn = warn;
  }
});
