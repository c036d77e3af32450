"use client";
// Follows an answer run's server-sent events (GET /api/v1/stream/:requestId): every step, whether
// the run is paused (waiting for its LLM provider), then the answer or the error (folded by
// lib/client/answer-state.ts). EventSource reconnects by itself with Last-Event-ID, so nothing is missed.
import { useEffect, useState } from "react";
import { applyAnswerEvent, emptyAnswerState, type AnswerStreamEvent, type AnswerStreamState } from "@/lib/client/answer-state";

export type { AnswerStreamState } from "@/lib/client/answer-state";

export function useAnswerStream(requestId: string | null): AnswerStreamState {
  const [state, setState] = useState<AnswerStreamState>(emptyAnswerState);
  useEffect(() => {
    setState(emptyAnswerState());
    if (!requestId) return;
    const source = new EventSource(`/api/v1/stream/${encodeURIComponent(requestId)}`);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as AnswerStreamEvent;
      const seq = message.lastEventId === "" ? NaN : Number(message.lastEventId);
      setState((s) => applyAnswerEvent(s, event, seq));
      if (event.type === "answer" || event.type === "error") source.close();
    };
    return () => source.close();
  }, [requestId]);
  return state;
}
