// The loop's bookkeeping, pure: which gap a step works on (rotating), what a step's outcome does to
// the state, and when the loop must end in beast mode (step cap, bad attempts, no progress).
import type { ActionName, AnswerState } from "./types";

/** Steps in a row with no new URL, knowledge or gap before the loop gives up on progress. */
export const NO_PROGRESS_STEPS = 4;

/** The gap the next step works on: the queue rotates, one gap per step. */
export function currentGap(state: AnswerState): string {
  return state.gaps[state.gapCursor % state.gaps.length];
}

export interface StepOutcome {
  /** Whether the step added a URL, a knowledge item or a gap. */
  progress: boolean;
  /** Disabled for the next step only. */
  disable?: ActionName;
  /** A line for the working context. */
  diary: string;
}

export function completeStep(state: AnswerState, outcome: StepOutcome): void {
  state.step++;
  state.disabled = outcome.disable ? [outcome.disable] : [];
  state.stale = outcome.progress ? 0 : state.stale + 1;
  state.diary.push(`Step ${state.step}: ${outcome.diary}`);
  state.gapCursor = state.gaps.length ? (state.gapCursor + 1) % state.gaps.length : 0;
}

/** A sub-question answered: it leaves the queue (the original question never does). */
export function closeGap(state: AnswerState, gap: string): void {
  const index = state.gaps.indexOf(gap);
  if (index <= 0) return;
  state.gaps.splice(index, 1);
  // The next gap moves into the closed one's place: keep the cursor on it.
  if (state.gapCursor >= index) state.gapCursor--;
  state.gapCursor = state.gapCursor % state.gaps.length;
}

/** A rejected answer: its lesson is knowledge, the working context starts again, answer rests a step. */
export function rejectAnswer(state: AnswerState, lesson: string): void {
  state.badAttempts++;
  state.knowledge.push({ question: state.gaps[0], answer: lesson, kind: "lesson" });
  state.diary = [];
}

/** Why the loop must stop and beast mode answer, or null to go on. */
export function beastReason(state: AnswerState, { maxSteps, maxBadAttempt }: { maxSteps: number; maxBadAttempt: number }): string | null {
  if (state.badAttempts >= maxBadAttempt) return `${state.badAttempts} answers were rejected`;
  if (state.step >= maxSteps) return `the step cap (${maxSteps}) was reached`;
  if (state.stale >= NO_PROGRESS_STEPS) return `no progress for ${state.stale} steps`;
  return null;
}
