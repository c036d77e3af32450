// Dropping sub-questions that repeat a question asked before (or each other): by embeddings when
// EMBEDDING_MODEL is configured, else by normalised text similarity.
import { cosine } from "../ai/vectors";

/** Lower case, no punctuation, simple plurals folded: "What's the GPUs' price?" ~ "what s the gpu price". */
export function normaliseQuestion(text: string): string[] {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

/** Jaccard similarity of the two questions' word sets. */
export function textSimilarity(a: string, b: string): number {
  const x = new Set(normaliseQuestion(a));
  const y = new Set(normaliseQuestion(b));
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared);
}

export const TEXT_DUPLICATE = 0.8;
export const EMBEDDING_DUPLICATE = 0.86;

/** Embeds texts (one vector each, in order). */
export type Embed = (texts: string[]) => Promise<number[][]>;

/** The candidates that are new against `existing` and against each other, in order. */
export async function dropDuplicates(candidates: string[], existing: string[], embed?: Embed): Promise<string[]> {
  const fresh = candidates.map((c) => c.trim()).filter(Boolean);
  if (fresh.length === 0) return [];
  const kept: string[] = [];
  if (!embed) {
    for (const c of fresh) if (![...existing, ...kept].some((e) => textSimilarity(c, e) >= TEXT_DUPLICATE)) kept.push(c);
    return kept;
  }
  const vectors = await embed([...fresh, ...existing]);
  const keptVectors: number[][] = [];
  const old = vectors.slice(fresh.length);
  fresh.forEach((c, i) => {
    const v = vectors[i];
    if ([...old, ...keptVectors].some((e) => cosine(v, e) >= EMBEDDING_DUPLICATE)) return;
    kept.push(c);
    keptVectors.push(v);
  });
  return kept;
}
