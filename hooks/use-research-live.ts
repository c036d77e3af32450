"use client";
// The live state of one research, from its stream (snapshot + live parts, reconnecting on drop).
// The server ends the stream once the research is terminal; `reconnect()` opens it again after the
// research was made to run again (resume, write report) — the new snapshot replaces the state.
import { useCallback, useEffect, useReducer, useState } from "react";
import { applyChunks, type LiveResearch, type ResearchDataChunk } from "@/lib/client/research-state";
import { subscribeResearchStream, type StreamConnection } from "@/lib/client/research-stream";

const BATCH_MS = 100;

type Action = { type: "chunks"; chunks: ResearchDataChunk[] } | { type: "reset" };

function reducer(state: LiveResearch | null, action: Action): LiveResearch | null {
  if (action.type === "reset") return null;
  return applyChunks(state, action.chunks);
}

export interface ResearchLive {
  live: LiveResearch | null;
  connection: StreamConnection;
  notFound: boolean;
  /** Opens the stream again (keeping the current state on screen until the new snapshot). */
  reconnect: () => void;
  /** True from `reconnect()` until the new snapshot has been applied. */
  refreshing: boolean;
}

export function useResearchLive(researchId: string): ResearchLive {
  const [live, dispatch] = useReducer(reducer, null);
  const [connection, setConnection] = useState<StreamConnection>("connecting");
  const [notFound, setNotFound] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [refreshing, setRefreshing] = useState(false);

  // Another research: start from nothing. (A reconnect keeps what is shown.)
  useEffect(() => {
    dispatch({ type: "reset" });
    setNotFound(false);
  }, [researchId]);

  useEffect(() => {
    // A busy run emits many parts a second: apply them in batches (every 100 ms), not one render
    // each; a 110-query research sends thousands. A timer rather than requestAnimationFrame, which
    // stops in background tabs. The snapshot is applied at once.
    let queue: ResearchDataChunk[] = [];
    let frame: ReturnType<typeof setTimeout> | null = null;
    let sawSnapshot = false;
    const flush = () => {
      frame = null;
      const chunks = queue;
      queue = [];
      if (chunks.length) dispatch({ type: "chunks", chunks });
      if (sawSnapshot) setRefreshing(false);
    };
    const unsubscribe = subscribeResearchStream(researchId, {
      onChunk: (chunk) => {
        if (chunk.type === "data-snapshot") sawSnapshot = true;
        queue.push(chunk);
        frame ??= setTimeout(flush, chunk.type === "data-snapshot" ? 0 : BATCH_MS);
      },
      onConnection: setConnection,
      onNotFound: () => {
        setNotFound(true);
        setRefreshing(false);
      },
    });
    return () => {
      unsubscribe();
      if (frame !== null) clearTimeout(frame);
    };
  }, [researchId, generation]);

  const reconnect = useCallback(() => {
    setRefreshing(true);
    setGeneration((g) => g + 1);
  }, []);

  // A failed or cancelled research may have been resumed elsewhere (another tab, the API, the CLI):
  // look again when this tab comes back into view.
  const stoppedEarly = live?.research.status === "failed" || live?.research.status === "cancelled";
  useEffect(() => {
    if (!stoppedEarly || connection !== "closed") return;
    const onVisible = () => {
      if (document.visibilityState === "visible") setGeneration((g) => g + 1);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [stoppedEarly, connection]);

  return { live, connection, notFound, reconnect, refreshing };
}
