// Vector arithmetic shared by every use of embeddings (the answer agent's duplicate questions, the
// knowledge base's hybrid ranking).

/** Cosine similarity; 0 when either vector is all zeros, -1 when their lengths differ (different models). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return -1;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
