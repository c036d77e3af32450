import assert from "node:assert/strict";
import { test } from "node:test";
import { reasoningRoom, spentThinking } from "./reasoning-room";

const reply = (finishReason: string, completionTokens: number) => ({ finishReason, usage: { promptTokens: 100, completionTokens, calls: 1 } });

test("a capped reply whose cap was spent thinking, nothing written, gives the server room: 8,000 tokens, doubled each time again, up to 32,000", () => {
  assert.equal(reasoningRoom(), 0);
  // Not a cap spent thinking: no cap, a reply written, a stop, a cap the server's own limit cut short of.
  assert.equal(spentThinking(reply("length", 4_000), undefined, ""), false);
  assert.equal(spentThinking(reply("length", 4_000), 4_000, "An answer."), false);
  assert.equal(spentThinking(reply("stop", 4_000), 4_000, ""), false);
  assert.equal(spentThinking(reply("length", 1_000), 4_000, ""), false);
  assert.equal(reasoningRoom(), 0);
  // Reasoning removed, a reply can be blank: that is nothing written too.
  assert.equal(spentThinking(reply("length", 4_000), 4_000, "  \n"), true);
  assert.equal(reasoningRoom(), 8_000);
  assert.equal(spentThinking(reply("length", 12_000), 12_000, ""), true);
  assert.equal(reasoningRoom(), 16_000);
  spentThinking(reply("length", 20_000), 20_000, "");
  spentThinking(reply("length", 36_000), 36_000, "");
  assert.equal(reasoningRoom(), 32_000);
  assert.equal(spentThinking(reply("length", 36_000), 36_000, ""), false, "no room past the most");
});
