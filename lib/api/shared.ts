// Loads what a share token opens, at the edge: auth resolves the link (and counts the opening), and
// the engine it names gives its public view. Null for an unknown, revoked or expired token.
import { resolveShareToken } from "../auth/share-links";
import { loadSharedConversation, type SharedConversation } from "../deep-research/shared-view";
import { loadSharedResearch, type SharedResearch } from "../research/shared-view";
import { researchExport, type ResearchExport } from "../research/export-view";

export type Shared = { research: SharedResearch } | { conversation: SharedConversation };

export async function loadShared(token: string): Promise<Shared | null> {
  const resolved = await resolveShareToken(token);
  if (!resolved) return null;
  if (resolved.conversationId) {
    const conversation = await loadSharedConversation(resolved.conversationId);
    return conversation ? { conversation } : null;
  }
  const research = resolved.researchId ? await loadSharedResearch(resolved.researchId) : null;
  return research ? { research } : null;
}

/**
 * What a share token's report exports from, or null for a bad link or a report not written yet.
 * Downloading is not counted as an opening: the page that offers it was.
 */
export async function loadSharedExport(token: string): Promise<ResearchExport | null> {
  const resolved = await resolveShareToken(token, { countOpen: false });
  return resolved?.researchId ? researchExport({ id: resolved.researchId }) : null;
}
