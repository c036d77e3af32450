import assert from "node:assert/strict";
import { test } from "node:test";
import { applyDrChunk, iterationCap, orderDiscoveries, phaseSince, runningStart, tasksByLevel, type DrChunk, type DrDiscovery, type DrSnapshot, type DrTask } from "./deep-research-state";

const task = (id: string, level: number, status = "pending"): DrTask => ({
  id, level, type: "LITERATURE", objective: `o ${id}`, datasetFilenames: [], status, output: null, artifacts: [], error: null, childResearchId: null, startedAt: null, endedAt: null,
});
const disc = (id: string, status: string, confidence: string, level = 1): DrDiscovery => ({
  id, claim: id, evidence: "", novelty: "", confidence, status, level, supportingTaskIds: [], evidenceItems: [], history: [],
});
const snapshot = (running = true): DrSnapshot => ({
  conversationId: "c1",
  state: { id: "c1", objective: "Why?", currentObjective: null, evolvingObjective: null, conversationTitle: null, keyInsights: [], methodology: null, currentHypothesis: null, suggestedNextSteps: [], currentLevel: 0, researchMode: "steering", uploadedDatasets: [], createdAt: "", updatedAt: "" },
  messages: [{ id: "m1", role: "user", content: "Why?", status: "processing", iteration: 1, level: 1, phase: "plan", researchMode: "steering", replyToId: null, suggestedNextSteps: [], error: null, createdAt: "2026-01-01T00:00:00Z", completedAt: null }],
  plan: [task("lit-1-1", 1)],
  discoveries: [],
  deepResearchRun: { isRunning: running, rootMessageId: "m1", mode: "steering", startedAt: null, lastResult: null, lastError: null, endedAt: null },
});
const snap = (running = true): DrChunk => ({ type: "data-snapshot", data: { seq: 3, conversation: snapshot(running) } });

test("parts before a snapshot are ignored; the snapshot sets everything", () => {
  assert.equal(applyDrChunk(null, { type: "data-task", data: { ...task("x", 1), seq: 1, at: 1 } }), null);
  const c = applyDrChunk(null, snap())!;
  assert.equal(c.plan.length, 1);
  assert.equal(c.phase, null);
});

test("tasks, discoveries and messages are upserted by id, without seq/at", () => {
  let c = applyDrChunk(null, snap())!;
  c = applyDrChunk(c, { type: "data-task", data: { ...task("lit-1-1", 1, "running"), seq: 4, at: 10 } })!;
  c = applyDrChunk(c, { type: "data-task", data: { ...task("lit-1-2", 1), seq: 5, at: 11 } })!;
  assert.deepEqual(c.plan.map((t) => [t.id, t.status]), [["lit-1-1", "running"], ["lit-1-2", "pending"]]);
  assert.equal("seq" in c.plan[0], false);
  c = applyDrChunk(c, { type: "data-discovery", data: { ...disc("d1", "active", "high"), seq: 6, at: 12 } })!;
  c = applyDrChunk(c, { type: "data-discovery", data: { ...disc("d1", "retired", "high"), seq: 7, at: 13 } })!;
  assert.deepEqual(c.discoveries.map((d) => d.status), ["retired"]);
});

test("a reply being written is a draft: pieces appended at their offsets, started over at 0, replaced by the saved reply", () => {
  let c = applyDrChunk(null, snap())!;
  const piece = (offset: number, delta: string, seq: number): DrChunk => ({ type: "data-reply-delta", data: { replyToId: "m1", offset, delta, seq, at: seq } });
  c = applyDrChunk(c, piece(0, "Prices ", 4))!;
  c = applyDrChunk(c, piece(7, "fell", 5))!;
  assert.deepEqual(c.draft, { replyToId: "m1", text: "Prices fell" });
  // The step tried again: its first piece starts the draft over.
  c = applyDrChunk(c, piece(0, "Costs", 6))!;
  assert.equal(c.draft?.text, "Costs");
  // Written again for a fault of the first (it cited nothing, another language): the note comes with the first piece and stays.
  c = applyDrChunk(c, { type: "data-reply-delta", data: { replyToId: "m1", offset: 0, delta: "Cos", note: "Written again: the write-up cited none of its 3 snippets.", seq: 6, at: 6 } })!;
  c = applyDrChunk(c, piece(3, "ts", 6))!;
  assert.deepEqual(c.draft, { replyToId: "m1", text: "Costs", note: "Written again: the write-up cited none of its 3 snippets." });
  // A piece after a gap (a client that joined mid-reply) is not shown as if it were the start.
  const joined = applyDrChunk(applyDrChunk(null, snap())!, piece(120, "rose", 7))!;
  assert.equal(joined.draft, null);
  // The saved reply replaces the draft.
  const saved = { id: "r1", role: "assistant", content: "Costs rose.", status: "completed", iteration: 1, level: 1, phase: null, researchMode: null, replyToId: "m1", suggestedNextSteps: [], error: null, createdAt: "", completedAt: null };
  const done = applyDrChunk(c, { type: "data-message", data: { ...saved, seq: 8, at: 8 } })!;
  assert.equal(done.draft, null);
  assert.equal(done.messages.at(-1)?.content, "Costs rose.");
  // A page loaded mid-reply: the snapshot's draft, then the pieces after it (one it already holds adds only its rest).
  const mid = applyDrChunk(null, { type: "data-snapshot", data: { seq: 3, conversation: { ...snapshot(), draft: { replyToId: "m1", text: "Costs ro" } } } })!;
  const on = applyDrChunk(applyDrChunk(mid, piece(5, " rose", 4))!, piece(10, ".", 5))!;
  assert.equal(on.draft?.text, "Costs rose.");
  assert.equal(applyDrChunk(null, { type: "data-snapshot", data: { seq: 3, conversation: { ...snapshot(false), draft: { replyToId: "m1", text: "x" } } } })!.draft, null, "an ended run's snapshot shows no draft");
  // The run's end clears a draft whose reply never came (a failed step).
  assert.equal(applyDrChunk(c, { type: "data-run", data: { ...snapshot().deepResearchRun, isRunning: false, seq: 9, at: 9 } })!.draft, null);
});

test("a phase part is timed; the run ending clears it; a snapshot of the same running conversation keeps it", () => {
  let c = applyDrChunk(null, snap())!;
  c = applyDrChunk(c, { type: "data-phase", data: { messageId: "m1", iteration: 2, level: 2, phase: "execute", seq: 4, at: 500 } })!;
  assert.deepEqual(c.phase, { messageId: "m1", iteration: 2, level: 2, phase: "execute", at: 500 });
  assert.equal(applyDrChunk(c, snap())!.phase?.at, 500);
  assert.equal(applyDrChunk(c, snap(false))!.phase, null);
  const ended = applyDrChunk(c, { type: "data-run", data: { ...snapshot().deepResearchRun, isRunning: false, seq: 9, at: 600 } })!;
  assert.equal(ended.phase, null);
  assert.equal(runningStart(ended), null);
  assert.equal(runningStart(c)?.id, "m1");
});

test("the phase's elapsed time starts at the server's phaseStartedAt, after a reload too", () => {
  // A reload: the snapshot's start message says when its phase began; no phase part yet.
  const reloaded = snapshot();
  reloaded.messages[0] = { ...reloaded.messages[0], phase: "execute", phaseStartedAt: "2026-01-01T00:05:00Z" };
  let c = applyDrChunk(null, { type: "data-snapshot", data: { seq: 3, conversation: reloaded } })!;
  assert.equal(phaseSince(c, runningStart(c)), Date.parse("2026-01-01T00:05:00Z"));
  // Without it (an older row): since the start was sent.
  const old = applyDrChunk(null, snap())!;
  assert.equal(phaseSince(old, runningStart(old)), Date.parse("2026-01-01T00:00:00Z"));
  // A live phase part: its phaseStartedAt, not the time the part was written.
  c = applyDrChunk(c, { type: "data-phase", data: { messageId: "m1", iteration: 1, level: 1, phase: "hypothesis", phaseStartedAt: "2026-01-01T00:07:00Z", seq: 4, at: Date.parse("2026-01-01T00:07:02Z") } })!;
  assert.equal(phaseSince(c, runningStart(c)), Date.parse("2026-01-01T00:07:00Z"));
  assert.equal(phaseSince(c, null), null);
});

test("tasks by level newest first in numeric order; discoveries standing and confident first; caps by mode", () => {
  const levels = tasksByLevel([task("lit-1-10", 1), task("lit-2-1", 2), task("lit-1-2", 1)]);
  assert.deepEqual(levels.map((l) => [l.level, l.tasks.map((t) => t.id)]), [[2, ["lit-2-1"]], [1, ["lit-1-2", "lit-1-10"]]]);
  assert.deepEqual(orderDiscoveries([disc("r", "retired", "high"), disc("m", "active", "medium"), disc("h", "active", "high"), disc("v", "revised", "low")]).map((d) => d.id), ["h", "m", "v", "r"]);
  assert.deepEqual([iterationCap("semi-autonomous", 5), iterationCap("fully-autonomous", 5), iterationCap("steering", 5)], [5, 20, 1]);
});

test("parts the snapshot holds, and a row's older part that comes after a newer one, are dropped", () => {
  let c = applyDrChunk(null, snap())!;
  c = applyDrChunk(c, { type: "data-task", data: { ...task("lit-1-1", 1, "failed"), seq: 2, at: 1 } })!;
  assert.equal(c.plan[0].status, "pending", "seq 2: the snapshot (3) holds it already");
  // As a queue-mode stream delivered them: the newer states first.
  c = applyDrChunk(c, { type: "data-task", data: { ...task("lit-1-1", 1, "done"), seq: 71, at: 20 } })!;
  c = applyDrChunk(c, { type: "data-discovery", data: { ...disc("d1", "retired", "high"), seq: 72, at: 21 } })!;
  c = applyDrChunk(c, { type: "data-task", data: { ...task("lit-1-1", 1, "running"), seq: 65, at: 10 } })!;
  c = applyDrChunk(c, { type: "data-discovery", data: { ...disc("d1", "active", "high"), seq: 66, at: 11 } })!;
  c = applyDrChunk(c, { type: "data-task", data: { ...task("lit-1-2", 1, "running"), seq: 67, at: 12 } })!;
  assert.deepEqual(c.plan.map((t) => [t.id, t.status]), [["lit-1-1", "done"], ["lit-1-2", "running"]]);
  assert.deepEqual(c.discoveries.map((d) => d.status), ["retired"]);
  // The run's end clears the phase; a phase part older than the end does not bring it back.
  c = applyDrChunk(c, { type: "data-run", data: { ...snapshot().deepResearchRun, isRunning: false, seq: 80, at: 30 } })!;
  c = applyDrChunk(c, { type: "data-phase", data: { messageId: "m1", iteration: 1, level: 1, phase: "reflect", seq: 79, at: 29 } })!;
  c = applyDrChunk(c, { type: "data-run", data: { ...snapshot().deepResearchRun, isRunning: true, seq: 78, at: 28 } })!;
  assert.equal(c.phase, null);
  assert.equal(c.deepResearchRun.isRunning, false);
});
