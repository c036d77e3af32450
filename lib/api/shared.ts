// Loads what a share token opens, at the edge: auth resolves the link (and counts the opening), and
// the engine it names gives its public view. Null for an unknown, revoked or expired token.
import { resolveShareToken } from "../auth/share-links";
import { loadSharedConversation, type SharedConversation } from "../deep-research/shared-view";
import { loadSharedResearch, type SharedResearch } from "../research/shared-view";
import { researchExport } from "../research/export-view";
import { researchPaper } from "../research/paper";
import { conversationExport } from "../deep-research/export-view";
import type { ExportDocument } from "../exports/document";
import type { PaperInput } from "../exports/latex/paper";

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
 * What a share token's report (or conversation) exports from, or null for a bad link or nothing
 * written yet. Downloading is not counted as an opening: the page that offers it was.
 */
export async function loadSharedExport(token: string): Promise<{ doc: ExportDocument; paper: () => Promise<PaperInput> } | null> {
  const resolved = await resolveShareToken(token, { countOpen: false });
  if (resolved?.conversationId) return conversationExport({ id: resolved.conversationId });
  const exported = resolved?.researchId ? await researchExport({ id: resolved.researchId }) : null;
  return exported ? { doc: exported.doc, paper: () => researchPaper(exported) } : null;
}
