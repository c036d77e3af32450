// The browser's copy of an answer run, folded from its server-sent events (GET /api/v1/stream/:id):
// every step once, whether the run is paused, then the answer or the error. Each event's `id:` is its
// number: a pause state older than the one shown (one that came late) is dropped.
import type { FinalAnswer, Trackers } from "@/lib/answer/events";
import type { PausedState } from "@/lib/types";

export interface AnswerStreamState {
  steps: Trackers[];
  final: FinalAnswer | null;
  error: string | null;
  paused: PausedState | null;
  /** The number of the event the pause state was last set from. */
  pausedSeq: number;
}

export type AnswerStreamEvent = { type: string; trackers?: Trackers; message?: string; paused?: PausedState | null } & Partial<FinalAnswer>;

export const emptyAnswerState = (): AnswerStreamState => ({ steps: [], final: null, error: null, paused: null, pausedSeq: -1 });

/** `seq`: the event's number (its SSE id; NaN when it has none, which is then taken as newest). */
export function applyAnswerEvent(s: AnswerStreamState, event: AnswerStreamEvent, seq: number): AnswerStreamState {
  if (event.type === "progress" && event.trackers) {
    const trackers = event.trackers;
    return s.steps.some((t) => t.step === trackers.step) ? s : { ...s, steps: [...s.steps, trackers] };
  }
  if (event.type === "paused") {
    if (Number.isFinite(seq) && seq < s.pausedSeq) return s;
    return { ...s, paused: event.paused ?? null, pausedSeq: Number.isFinite(seq) ? seq : s.pausedSeq };
  }
  // The end: no pause shows after it, whatever comes late.
  if (event.type === "answer") return { ...s, final: event as FinalAnswer, paused: null, pausedSeq: Infinity };
  if (event.type === "error") return { ...s, error: event.message ?? "The answer run failed", paused: null, pausedSeq: Infinity };
  return s;
}
