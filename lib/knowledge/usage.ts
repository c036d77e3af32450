// The embeddings a user's own action spends outside a run (indexing an upload, searching a collection
// from its page), recorded against the user as a row of their LLM calls (lib/db/planning-calls.ts):
// the row is written before the first request (begun; a crash leaves it open) and ended after.
import type { UsageSink } from "../ai/usage";
import { addPlanningCallUsage, endPlanningCall, insertPlanningCall, type KnowledgeCallKind } from "../db/planning-calls";
import { errorMessage } from "../errors";

export async function withUserEmbeddingUsage<T>(
  { userId, kind, subjectId }: { userId: string | null; kind: KnowledgeCallKind; subjectId?: string },
  fn: (onUsage: UsageSink | undefined) => Promise<T>,
): Promise<T> {
  // The shared folder's indexing (no user) is the server's own work.
  if (!userId) return fn(undefined);
  let row: { id: string } | null = null;
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
