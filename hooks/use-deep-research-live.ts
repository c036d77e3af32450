"use client";
// The live state of one Deep Research conversation from its stream (the snapshot at once, then parts
// batched every 50 ms like use-research-live.ts). The server ends the stream when the loop stops; a new start
// (answer/steer) calls `reconnect()` to follow the new loop from a fresh snapshot.
import { useCallback, useEffect, useReducer, useState } from "react";
import { chunkBatcher } from "@/lib/client/chunk-batcher";
import { applyDrChunk, type DrChunk, type LiveConversation } from "@/lib/client/deep-research-state";
import { subscribeConversationStream } from "@/lib/client/deep-research-stream";
import type { StreamConnection } from "@/lib/client/research-stream";

type Action = { type: "chunks"; chunks: DrChunk[] } | { type: "reset" };
const reducer = (s: LiveConversation | null, a: Action) => (a.type === "reset" ? null : a.chunks.reduce(applyDrChunk, s));

export function useDeepResearchLive(id: string) {
  const [live, dispatch] = useReducer(reducer, null);
  const [connection, setConnection] = useState<StreamConnection>("connecting");
  const [notFound, setNotFound] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    dispatch({ type: "reset" });
    setNotFound(false);
  }, [id]);

  useEffect(() => {
    const batches = chunkBatcher<DrChunk>(50, (chunks) => dispatch({ type: "chunks", chunks }));
    const unsubscribe = subscribeConversationStream(id, {
      onChunk: (c) => {
        // A mark for the render-time measure (e2e/deep-research-perf.spec.ts); cheap in production.
        if (c.type === "data-snapshot") performance.mark("dr:snapshot");
        batches.push(c);
      },
      onConnection: setConnection,
      onNotFound: () => setNotFound(true),
    });
    return () => {
      unsubscribe();
      batches.stop();
    };
  }, [id, generation]);

  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);
  return { live, connection, notFound, reconnect };
}
