// Embeddings, the one client for every caller (the knowledge base's chunks and queries, the answer
// agent's near-duplicate questions), when EMBEDDING_MODEL is set (an OpenAI-compatible embeddings
// endpoint on the LLM provider). Each request is an LLM call like the others: begun and settled on
// the caller's usage sink (lib/ai/usage.ts), so its tokens go to the caller's run or user.
import { embedMany } from "ai";
import { getEnv } from "../env";
import { embeddingModel } from "./providers";
import { estimatedTokens, type UsageSink } from "./usage";

// Texts per request: well under every OpenAI-compatible server's input limit.
export const EMBED_BATCH = 64;

/** The configured embedding model's id, or null: no embeddings. */
export function embeddingsEnabled(): string | null {
  return getEnv().EMBEDDING_MODEL ?? null;
}

/** Vectors for `texts`, or null when no model is configured. Throws when the endpoint fails. */
export async function embedTexts(texts: string[], { signal, onUsage }: { signal?: AbortSignal; onUsage?: UsageSink } = {}): Promise<Float32Array[] | null> {
  const model = embeddingModel();
  if (!model) return null;
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    await onUsage?.begin?.();
    let result: Awaited<ReturnType<typeof embedMany>>;
    try {
      result = await embedMany({ model, values: batch, abortSignal: signal, maxRetries: 2 });
    } catch (error) {
      // A begun call that failed is settled with no usage.
      if (onUsage?.begin) await onUsage({ promptTokens: 0, completionTokens: 0, calls: 0 });
      throw error;
    }
    // A server that reports no usage has its tokens estimated from the texts (./usage.ts).
    await onUsage?.({ promptTokens: result.usage?.tokens ?? estimatedTokens(batch.reduce((n, t) => n + t.length, 0)), completionTokens: 0, calls: 1 });
    out.push(...result.embeddings.map((e) => Float32Array.from(e)));
  }
  return out;
}
