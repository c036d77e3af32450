// The embeddings a user's own action spends outside a run (indexing an upload, searching a collection
// from its page), recorded against the user as a row of their LLM calls (lib/db/planning-calls.ts),
// and counted against the user's limits for that kind of work (lib/runs/limits.ts): an upload or a
// re-index always (parsing costs the server even without embeddings), a search when it embeds its
// query. The row is written before any work (a crash leaves it open: it then stops counting as in
// flight after a while) and ended after; over a limit, the work is refused with a 429 and Retry-After.
import { embeddingsEnabled } from "../ai/embed";
import type { UsageSink } from "../ai/usage";
import { addPlanningCallUsage, endPlanningCall, insertPlanningCall, type KnowledgeCallKind } from "../db/planning-calls";
import { errorMessage } from "../errors";
import { beginKnowledgeWork } from "../runs/limits";

export async function withUserEmbeddingUsage<T>(
  { userId, kind, subjectId }: { userId: string | null; kind: KnowledgeCallKind; subjectId?: string },
  fn: (onUsage: UsageSink | undefined) => Promise<T>,
): Promise<T> {
  // The shared folder's indexing (no user) is the server's own work.
  if (!userId) return fn(undefined);
  // A search without embeddings is full text only: no LLM call, nothing to count.
  let row: { id: string } | null = kind === "knowledge-index" || embeddingsEnabled() ? await beginKnowledgeWork({ userId, kind, subjectId }) : null;
  const onUsage: UsageSink = Object.assign((t: { promptTokens: number; completionTokens: number; calls: number }) => (row ? addPlanningCallUsage(row.id, t) : undefined), {
    begin: async () => {
      row ??= await insertPlanningCall({ userId, kind, subjectId });
    },
  });
  try {
    return await fn(onUsage);
  } finally {
    if (row) await endPlanningCall({ id: (row as { id: string }).id }).catch((error: unknown) => console.error(`[quarry] embeddings record could not be closed: ${errorMessage(error)}`));
  }
}
