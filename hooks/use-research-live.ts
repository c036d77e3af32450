"use client";
// The live state of one research, from its stream (snapshot + live parts, reconnecting on drop).
// The server ends the stream once the research is terminal; `reconnect()` opens it again after the
// research was made to run again (resume, write report) — the new snapshot replaces the state.
import { useCallback, useEffect, useReducer, useState } from "react";
import { chunkBatcher } from "@/lib/client/chunk-batcher";
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
    // Thousands of parts for a 110-query research: applied in batches (the snapshot at once).
    const batches = chunkBatcher<ResearchDataChunk>(BATCH_MS, (chunks) => {
      dispatch({ type: "chunks", chunks });
      if (chunks.some((c) => c.type === "data-snapshot")) setRefreshing(false);
    });
    const unsubscribe = subscribeResearchStream(researchId, {
      onChunk: batches.push,
      onConnection: setConnection,
      onNotFound: () => {
        setNotFound(true);
        setRefreshing(false);
      },
    });
    return () => {
      unsubscribe();
      batches.stop();
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
