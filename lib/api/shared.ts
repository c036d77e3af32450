// Loads what a share token opens, at the edge: auth resolves the link (and counts the opening), and
// the engine it names gives its public view. Null for an unknown, revoked or expired token.
import { resolveShareToken } from "../auth/share-links";
import { loadSharedConversation, type SharedConversation } from "../deep-research/shared-view";
import { loadSharedResearch, type SharedResearch } from "../research/shared-view";

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
