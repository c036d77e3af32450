// Embeddings for near-duplicate sub-questions, when EMBEDDING_MODEL is configured: under the loop's
// budget (their tokens count as "dedup"); when the budget cannot afford them, text similarity decides.
import { embedTexts } from "../ai/embed";
import { embeddingModel } from "../ai/providers";
import type { TokenBudget } from "./budget";
import { dropDuplicates, type Embed } from "./dedup";

export function budgetedEmbed(budget: TokenBudget, signal: AbortSignal): Embed | undefined {
  const model = embeddingModel();
  if (!model) return undefined;
  return async (texts) => {
    // Embeddings produce no output tokens: the prompt's worst case must fit.
    if (budget.room("loop", texts.join("\n")) <= 0) {
      throw new EmbeddingUnaffordable();
    }
    const vectors = await embedTexts(texts, { signal, onUsage: budget.sink("dedup") });
    return (vectors ?? []).map((v) => Array.from(v));
  };
}

class EmbeddingUnaffordable extends Error {}

/** Embeddings when they are configured and affordable (and work); text similarity otherwise. */
export async function dropDuplicateQuestions(candidates: string[], existing: string[], embed?: Embed): Promise<string[]> {
  if (!embed) return dropDuplicates(candidates, existing);
  try {
    return await dropDuplicates(candidates, existing, embed);
  } catch (error) {
    if (!(error instanceof EmbeddingUnaffordable)) console.error("[quarry] embeddings failed; comparing questions as text:", error);
    return dropDuplicates(candidates, existing);
  }
}
