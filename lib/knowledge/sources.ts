// Where a run searches: the web, chosen collections, or both; chosen per run and stored with it (JSON)
// so that a resumed run searches the same places.
import { z } from "zod";
import { readableCollectionIds } from "../db/knowledge";
import { AppError } from "../errors";
import { text } from "../validation/text";

export const sourcesSchema = z
  .object({
    web: z.boolean({ error: "sources.web must be true or false" }).default(true),
    collections: z
      .array(text({ error: "sources.collections must be a list of collection ids" }).trim().min(1).max(100), { error: "sources.collections must be a list of collection ids" })
      .max(20, "sources.collections may name at most 20 collections")
      .default([]),
  })
  .refine((s) => s.web || s.collections.length > 0, { error: "sources must include the web or at least one collection" });

export type Sources = z.infer<typeof sourcesSchema>;

export const WEB_ONLY: Sources = { web: true, collections: [] };

/** A run's stored sources; null (runs from before the knowledge base) is the web only. */
export function parseSources(json: string | null | undefined): Sources {
  if (!json) return WEB_ONLY;
  const parsed = sourcesSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : WEB_ONLY;
}

/** Refuses a start naming a collection the caller cannot read (404, as for any object of another user). */
export async function assertSourcesReadable(userId: string | null, sources: Sources): Promise<void> {
  const unique = [...new Set(sources.collections)];
  if (unique.length === 0) return;
  const readable = new Set(await readableCollectionIds({ ids: unique, userId }));
  const missing = unique.find((id) => !readable.has(id));
  if (missing) throw new AppError("not_found:collection", `Collection not found: ${missing}`, { field: "sources" });
}
