// The fake LLM's POST /v1/embeddings: a deterministic vector for any text, by meaning as far as a
// fake can tell it. Each word is lower-cased, a plural "s" dropped, and mapped to its concept (the
// SYNONYMS below: "seaweed" and "kelp" are one concept, "car" and "automobile" another); each concept
// is hashed (FNV-1a) to one of DIMENSIONS dimensions; the counts are L2-normalised. Texts sharing
// concepts point the same way (cosine near 1), texts sharing none are near orthogonal, so a passage
// that says the same thing in other words is found by its vector alone. The wire format is OpenAI's
// (float arrays, or base64 little-endian float32 when `encoding_format: "base64"`), with usage.
// The token estimate the fake LLM uses too (llm-server.ts): ceil(characters / 4).
const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export const DIMENSIONS = 256;

/** Words that mean the same here (each maps to the first of its group). */
const GROUPS = [
  ["kelp", "seaweed", "algae", "alga", "macroalgae"],
  ["meadow", "forest", "bed", "field"],
  ["car", "automobile", "vehicle", "motorcar"],
  ["ocean", "sea", "marine", "coast", "coastal", "shore"],
  ["moss", "bryophyte", "lichen"],
  ["glow", "glowed", "glowing", "luminous", "fluorescent", "fluoresce"],
  ["doctor", "physician", "clinician"],
  ["money", "cash", "fund", "funding", "budget"],
];
const SYNONYMS = new Map(GROUPS.flatMap((group) => group.map((word) => [word, group[0]] as const)));

// Words too common to carry meaning.
const STOP = new Set("a an and are as at be by for from has have in is it its of on or that the this to was were with".split(" "));

function concept(word: string): string {
  const lower = word.toLowerCase();
  const known = SYNONYMS.get(lower);
  if (known) return known;
  const singular = lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss") ? lower.slice(0, -1) : lower;
  return SYNONYMS.get(singular) ?? singular;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The fake's vector for `text` (unit length; a text with no words gets a fixed direction). */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP.has(word.toLowerCase())) continue;
    vector[fnv1a(concept(word)) % DIMENSIONS] += 1;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((v) => v / norm);
}

function base64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString("base64");
}

/** The response to an embeddings request body, or an error naming what is wrong with it. */
export function embeddingsReply(body: unknown, defaultModel: string): { texts: string[]; body: object } | { error: string } {
  if (!body || typeof body !== "object") return { error: "Request body must be a JSON object" };
  const { input, model, encoding_format: format } = body as { input?: unknown; model?: unknown; encoding_format?: unknown };
  const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((t) => typeof t === "string") ? (input as string[]) : null;
  if (!texts || texts.length === 0) return { error: "input must be a string or a non-empty array of strings" };
  const tokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
  const data = texts.map((text, index) => ({ object: "embedding", index, embedding: format === "base64" ? base64(fakeEmbedding(text)) : fakeEmbedding(text) }));
  return { texts, body: { object: "list", data, model: typeof model === "string" ? model : defaultModel, usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}
