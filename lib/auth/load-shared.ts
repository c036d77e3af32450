// Loads what a share token opens. Counts the opening; null for an unknown, revoked or expired token.
import { loadResearchGraph } from "../db/research";
import { toResearchView } from "../research/public-shape";
import { resolveShareToken } from "./share-links";
import { toSharedResearch, type SharedResearch } from "./shared-research";

export async function loadSharedResearch(token: string): Promise<SharedResearch | null> {
  const resolved = await resolveShareToken(token);
  if (!resolved) return null;
  // The link itself is the authorisation: load by id without an owner scope, then strip to the shared view.
  const graph = await loadResearchGraph({ id: resolved.researchId });
  return graph ? toSharedResearch(toResearchView(graph)) : null;
}
