// Loads what a share token opens: a research or a Deep Research conversation. Counts the opening;
// null for an unknown, revoked or expired token.
import { loadResearchGraph } from "../db/research";
import { conversationSnapshot } from "../deep-research/snapshot";
import { toResearchView } from "../research/public-shape";
import { resolveShareToken } from "./share-links";
import { toSharedConversation, type SharedConversation } from "./shared-conversation";
import { toSharedResearch, type SharedResearch } from "./shared-research";

export type Shared = { research: SharedResearch } | { conversation: SharedConversation };

export async function loadShared(token: string): Promise<Shared | null> {
  const resolved = await resolveShareToken(token);
  if (!resolved) return null;
  // The link itself is the authorisation: load by id without an owner scope, then strip to the shared view.
  if (resolved.conversationId) {
    const snapshot = await conversationSnapshot({ id: resolved.conversationId });
    return snapshot ? { conversation: toSharedConversation(snapshot) } : null;
  }
  const graph = resolved.researchId ? await loadResearchGraph({ id: resolved.researchId }) : null;
  return graph ? { research: toSharedResearch(toResearchView(graph)) } : null;
}
