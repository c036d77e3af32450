import assert from "node:assert/strict";
import { test } from "node:test";
import { actionSchema, allowedActions } from "./actions";
import { beastReason, closeGap, completeStep, currentGap, NO_PROGRESS_STEPS, rejectAnswer } from "./loop";
import { initialState } from "./types";

test("gaps rotate one per step; closing a sub-question keeps the rotation on the next gap", () => {
  const s = initialState("Q");
  s.gaps.push("s1", "s2");
  assert.equal(currentGap(s), "Q");
  completeStep(s, { progress: true, diary: "" });
  assert.equal(currentGap(s), "s1");
  closeGap(s, "s1");
  completeStep(s, { progress: true, diary: "" });
  assert.equal(currentGap(s), "s2");
  completeStep(s, { progress: true, diary: "" });
  assert.equal(currentGap(s), "Q");
  closeGap(s, "Q");
  assert.deepEqual(s.gaps, ["Q", "s2"]);
});

test("the schema offers only the allowed actions", () => {
  const schema = actionSchema(["search", "answer"]);
  assert.ok(schema.safeParse({ action: "search", think: "t", searchQuery: ["q"] }).success);
  assert.ok(!schema.safeParse({ action: "visit", think: "t", URLTargets: ["https://a.example"] }).success);
  assert.ok(schema.safeParse({ action: "answer", think: "t", answer: "2", references: [] }).success);
  // The action's name in another case or padded is that action; one not offered is still refused.
  assert.equal(schema.parse({ action: " Search ", think: "t", searchQuery: ["q"] }).action, "search");
  assert.equal(schema.parse({ action: "ANSWER", think: "t", answer: "2", references: [] }).action, "answer");
  assert.ok(!schema.safeParse({ action: "Visit", think: "t", URLTargets: ["U1"] }).success);
});

test("a disabled action is gone for one step; visit needs unread URLs; answer returns when nothing else is left", () => {
  const s = initialState("Q");
  assert.deepEqual(allowedActions(s, 0), ["search", "reflect", "answer"]);
  completeStep(s, { progress: false, disable: "answer", diary: "" });
  assert.deepEqual(allowedActions(s, 3), ["search", "visit", "reflect"]);
  completeStep(s, { progress: false, diary: "" });
  assert.deepEqual(allowedActions(s, 3), ["search", "visit", "reflect", "answer"]);
  s.disabled = ["search"];
  s.questions = Array.from({ length: 20 }, (_, i) => `q${i}`);
  assert.deepEqual(allowedActions(s, 0), ["answer"]);
});

test("beast mode: bad attempts, the step cap, or no progress for several steps", () => {
  const s = initialState("Q");
  const limits = { maxSteps: 10, maxBadAttempt: 2 };
  assert.equal(beastReason(s, limits), null);
  rejectAnswer(s, "hedged");
  assert.equal(s.knowledge[0].kind, "lesson");
  rejectAnswer(s, "hedged again");
  assert.match(beastReason(s, limits) ?? "", /rejected/);
  const t = initialState("Q");
  for (let i = 0; i < NO_PROGRESS_STEPS; i++) completeStep(t, { progress: false, diary: "" });
  assert.match(beastReason(t, limits) ?? "", /no progress/);
  t.stale = 0;
  t.step = 10;
  assert.match(beastReason(t, limits) ?? "", /step cap/);
});
