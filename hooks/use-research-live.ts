"use client";
// The live state of one research, from its stream (snapshot + live parts, reconnecting on drop).
import { useEffect, useReducer, useState } from "react";
import { applyChunk, type LiveResearch, type ResearchDataChunk } from "@/lib/client/research-state";
import { subscribeResearchStream, type StreamConnection } from "@/lib/client/research-stream";

type Action = { type: "chunks"; chunks: ResearchDataChunk[] } | { type: "reset" };

function reducer(state: LiveResearch | null, action: Action): LiveResearch | null {
  if (action.type === "reset") return null;
  return action.chunks.reduce(applyChunk, state);
}

export interface ResearchLive {
  live: LiveResearch | null;
  connection: StreamConnection;
  notFound: boolean;
}

export function useResearchLive(researchId: string): ResearchLive {
  const [live, dispatch] = useReducer(reducer, null);
  const [connection, setConnection] = useState<StreamConnection>("connecting");
  const [notFound, setNotFound] = useState(false);

  useEffect(() => {
    dispatch({ type: "reset" });
    setNotFound(false);
    // A busy run emits many parts a second: apply them in batches (every 50 ms), not one render
    // each. A timer rather than requestAnimationFrame, which stops in background tabs.
    let queue: ResearchDataChunk[] = [];
    let frame: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      frame = null;
      const chunks = queue;
      queue = [];
      if (chunks.length) dispatch({ type: "chunks", chunks });
    };
    const unsubscribe = subscribeResearchStream(researchId, {
      onChunk: (chunk) => {
        queue.push(chunk);
        frame ??= setTimeout(flush, 50);
      },
      onConnection: setConnection,
      onNotFound: () => setNotFound(true),
    });
    return () => {
      unsubscribe();
      if (frame !== null) clearTimeout(frame);
    };
  }, [researchId]);

  return { live, connection, notFound };
}
