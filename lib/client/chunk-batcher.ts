// A run stream's chunks handed to the page in batches: a busy run sends many parts a second, and one
// render each would swamp the main thread. A timer rather than requestAnimationFrame, which stops in
// background tabs. A snapshot goes at once (with whatever came before it): the first data is not held.
export interface ChunkBatcher<C> {
  push(chunk: C): void;
  /** Drops what is waiting and stops the timer (the stream is being closed). */
  stop(): void;
}

export function chunkBatcher<C extends { type: string }>(ms: number, onBatch: (chunks: C[]) => void): ChunkBatcher<C> {
  let queue: C[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const chunks = queue;
    queue = [];
    if (chunks.length) onBatch(chunks);
  };
  return {
    push(chunk) {
      queue.push(chunk);
      if (chunk.type === "data-snapshot") {
        if (timer !== null) clearTimeout(timer);
        flush();
      } else {
        timer ??= setTimeout(flush, ms);
      }
    },
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      queue = [];
    },
  };
}
