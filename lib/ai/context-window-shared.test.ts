// With Redis (queue mode) the prompt-cut notice is the fleet's: a worker that saw a prompt cut shares
// it, a web process that saw nothing shows it, and a longer prompt counted whole anywhere clears it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { redisOrSkip, testRedisPrefix, TEST_REDIS_URL } from "../../test/helpers/redis";

const skip = await redisOrSkip();
process.env.REDIS_URL = TEST_REDIS_URL;
process.env.REDIS_KEY_PREFIX = testRedisPrefix("prompt-cut");
const { notePromptTokens, promptCutAnywhere } = await import("./context-window");
const { redis } = await import("../redis");

async function waitUntil(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await done()); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(await done());
}

/** This process's own notice, as another process (one that saw nothing) would have it. */
const forgetLocally = () => ((globalThis as { quarryPromptCut?: { cut: unknown } }).quarryPromptCut!.cut = null);

test("a cut seen by one process is shown by another, until a longer prompt is counted whole", { skip }, async () => {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    notePromptTokens(40_000, 4_096);
    forgetLocally();
    assert.deepEqual(await promptCutAnywhere(), { counted: 4_096, estimated: 10_000, suggested: 16_384 });
    assert.ok((await redis().ttl(`${process.env.REDIS_KEY_PREFIX}:llm:prompt-cut`)) > 0, "the shared notice expires");
    // A process that never saw the cut counts a longer prompt whole (the context was made larger): the notice goes.
    notePromptTokens(48_000, 11_000);
    await waitUntil(async () => (await promptCutAnywhere()) === null);
    // The process that saw it clears it as well (and at once).
    notePromptTokens(40_000, 4_096);
    assert.ok(await promptCutAnywhere());
    notePromptTokens(48_000, 11_000);
    assert.equal(await promptCutAnywhere(), null);
  } finally {
    console.warn = warn;
    redis().disconnect();
  }
});
