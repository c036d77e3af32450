import assert from "node:assert/strict";
import { test } from "node:test";
import { applyAnswerEvent, emptyAnswerState, type AnswerStreamEvent } from "./answer-state";

const paused = { reason: "Waiting for the LLM provider: HTTP 503", since: "2026-01-01T00:00:00Z" };
const fold = (events: [AnswerStreamEvent, number][]) => events.reduce((s, [e, seq]) => applyAnswerEvent(s, e, seq), emptyAnswerState());

test("a pause state older than the one shown is dropped; nothing shows paused after the end", () => {
  // Going again (8) came before the pause it ends (7).
  assert.equal(fold([[{ type: "paused", paused: null }, 8], [{ type: "paused", paused }, 7]]).paused, null);
  assert.deepEqual(fold([[{ type: "paused", paused: null }, 7], [{ type: "paused", paused }, 8]]).paused, paused);
  const ended = fold([[{ type: "error", message: "boom" }, 9], [{ type: "paused", paused }, 8]]);
  assert.equal(ended.error, "boom");
  assert.equal(ended.paused, null);
});

test("each step once", () => {
  const trackers = { step: 1 } as unknown as NonNullable<AnswerStreamEvent["trackers"]>;
  const s = fold([[{ type: "progress", trackers }, 3], [{ type: "progress", trackers }, 3]]);
  assert.equal(s.steps.length, 1);
});
