"use client";
// Follows an answer run's server-sent events (GET /api/v1/stream/:requestId): every step, then the
// answer or the error. EventSource reconnects by itself with Last-Event-ID, so nothing is missed.
import { useEffect, useState } from "react";
import type { FinalAnswer, Trackers } from "@/lib/answer/events";

export interface AnswerStreamState {
  steps: Trackers[];
  final: FinalAnswer | null;
  error: string | null;
}

export function useAnswerStream(requestId: string | null): AnswerStreamState {
  const [state, setState] = useState<AnswerStreamState>({ steps: [], final: null, error: null });
  useEffect(() => {
    setState({ steps: [], final: null, error: null });
    if (!requestId) return;
    const source = new EventSource(`/api/v1/stream/${encodeURIComponent(requestId)}`);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as { type: string; trackers?: Trackers; message?: string } & FinalAnswer;
      if (event.type === "progress" && event.trackers) {
        const trackers = event.trackers;
        setState((s) => (s.steps.some((t) => t.step === trackers.step) ? s : { ...s, steps: [...s.steps, trackers] }));
      } else if (event.type === "answer") {
        setState((s) => ({ ...s, final: event }));
        source.close();
      } else if (event.type === "error") {
        setState((s) => ({ ...s, error: event.message ?? "The answer run failed" }));
        source.close();
      }
    };
    return () => source.close();
  }, [requestId]);
  return state;
}
