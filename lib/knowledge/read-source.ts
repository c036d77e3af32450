// Reading a knowledge source an engine found: the passage's text from the database (never the
// network), only from the collections the run may search.
import { getChunkInCollections } from "../db/knowledge";
import { parseKnowledgeSourceUrl, sourceTitle } from "./source-url";

export class KnowledgeSourceMissing extends Error {}

export async function readKnowledgeSource(url: string, collectionIds: string[]): Promise<{ title: string; text: string }> {
  const ref = parseKnowledgeSourceUrl(url);
  const chunk = ref ? await getChunkInCollections({ id: ref.chunkId, collectionIds }) : null;
  // Deleted or re-indexed since the search found it, or not in this run's collections.
  if (!chunk || chunk.documentId !== ref!.documentId) throw new KnowledgeSourceMissing("The document passage is no longer in the collection (deleted or re-indexed).");
  return { title: sourceTitle(chunk.document.name, chunk.document.title, chunk), text: chunk.text };
}
