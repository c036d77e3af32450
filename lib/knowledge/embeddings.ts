// Chunk and query embeddings when EMBEDDING_MODEL is set (through lib/ai/embed.ts, the one embeddings
// client), stored as float32 blobs beside the chunk. Without it, or when the endpoint
// fails, search is full-text only: a document is never refused for want of vectors.
export { embeddingsEnabled, embedTexts } from "../ai/embed";

export function toBlob(vector: Float32Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new Float32Array(vector).buffer);
}

export function fromBlob(blob: Uint8Array): Float32Array {
  // Copied: a Buffer from the driver may sit at an offset that is not a multiple of 4.
  const copy = new Uint8Array(blob);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}

/** Reciprocal rank fusion (k = 60, as Cormack et al.): each list adds 1 / (k + rank) to its items. */
export function reciprocalRankFusion(lists: string[][], k = 60): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  return scores;
}
