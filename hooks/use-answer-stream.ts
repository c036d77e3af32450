"use client";
// Follows an answer run's server-sent events (GET /api/v1/stream/:requestId): every step, whether
// the run is paused (waiting for its LLM provider), then the answer or the error. EventSource reconnects by itself with Last-Event-ID, so nothing is missed.
import { useEffect, useState } from "react";
import type { FinalAnswer, Trackers } from "@/lib/answer/events";
import type { PausedState } from "@/lib/types";

export interface AnswerStreamState {
  steps: Trackers[];
  final: FinalAnswer | null;
  error: string | null;
  paused: PausedState | null;
}

export function useAnswerStream(requestId: string | null): AnswerStreamState {
  const [state, setState] = useState<AnswerStreamState>({ steps: [], final: null, error: null, paused: null });
  useEffect(() => {
    setState({ steps: [], final: null, error: null, paused: null });
    if (!requestId) return;
    const source = new EventSource(`/api/v1/stream/${encodeURIComponent(requestId)}`);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as { type: string; trackers?: Trackers; message?: string; paused?: PausedState | null } & FinalAnswer;
      if (event.type === "progress" && event.trackers) {
        const trackers = event.trackers;
        setState((s) => (s.steps.some((t) => t.step === trackers.step) ? s : { ...s, steps: [...s.steps, trackers] }));
      } else if (event.type === "paused") {
        setState((s) => ({ ...s, paused: event.paused ?? null }));
      } else if (event.type === "answer") {
        setState((s) => ({ ...s, final: event, paused: null }));
        source.close();
      } else if (event.type === "error") {
        setState((s) => ({ ...s, error: event.message ?? "The answer run failed", paused: null }));
        source.close();
      }
    };
    return () => source.close();
  }, [requestId]);
  return state;
}
