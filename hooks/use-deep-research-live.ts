"use client";
// The live state of one Deep Research conversation from its stream (the snapshot at once, then parts
// batched every 50 ms like use-research-live.ts). The server ends the stream when the loop stops; a new start
// (answer/steer) calls `reconnect()` to follow the new loop from a fresh snapshot.
import { useCallback, useEffect, useReducer, useState } from "react";
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
    let queue: DrChunk[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const chunks = queue;
      queue = [];
      if (chunks.length) dispatch({ type: "chunks", chunks });
    };
    const unsubscribe = subscribeConversationStream(id, {
      onChunk: (c) => {
        // Marks for the render-time measure (e2e/deep-research-perf.spec.ts); cheap in production.
        queue.push(c);
        if (c.type === "data-snapshot") {
          // The first data renders at once: the batch is for the parts that follow it.
          performance.mark("dr:snapshot");
          if (timer !== null) clearTimeout(timer);
          flush();
          return;
        }
        timer ??= setTimeout(flush, 50);
      },
      onConnection: setConnection,
      onNotFound: () => setNotFound(true),
    });
    return () => { unsubscribe(); if (timer !== null) clearTimeout(timer); };
  }, [id, generation]);

  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);
  return { live, connection, notFound, reconnect };
}
