// A file → what is stored and searched: its metadata and its chunks. Nothing is written here, so a
// file that fails (corrupt, encrypted, empty, oversized) leaves the collection exactly as it was.
import crypto from "node:crypto";
import { getEnv } from "../env";
import type { ChunkInput, DocumentMeta } from "../db/knowledge";
import { errorMessage } from "../errors";
import { chunkSections } from "./chunk";
import { embeddingsEnabled, embedTexts } from "../ai/embed";
import type { UsageSink } from "../ai/usage";
import { toBlob } from "./embeddings";
import { parseDocument } from "./parse";

/** `onUsage`: whom the embedding requests are recorded against (the uploading user). */
export async function prepareDocument(name: string, bytes: Uint8Array, { onUsage }: { onUsage?: UsageSink } = {}): Promise<{ meta: DocumentMeta; chunks: ChunkInput[] }> {
  const env = getEnv();
  const parsed = await parseDocument(name, bytes, { maxBytes: env.KNOWLEDGE_MAX_FILE_BYTES, maxPages: env.KNOWLEDGE_MAX_PAGES });
  const chunks = chunkSections(parsed.sections);
  const meta: DocumentMeta = {
    name,
    format: parsed.format,
    bytes: bytes.length,
    sha256: crypto.createHash("sha256").update(bytes).digest("hex"),
    title: parsed.title,
    pageCount: parsed.pageCount,
  };
  return { meta, chunks: await withEmbeddings(name, chunks, onUsage) };
}

/** The chunks with their vectors when EMBEDDING_MODEL is set; without, when the endpoint fails (full-text search still finds them). */
async function withEmbeddings(name: string, chunks: ChunkInput[], onUsage: UsageSink | undefined): Promise<ChunkInput[]> {
  const model = embeddingsEnabled();
  if (!model || chunks.length === 0) return chunks;
  try {
    const vectors = await embedTexts(chunks.map((c) => c.text), { onUsage });
    if (!vectors) return chunks;
    return chunks.map((c, i) => ({ ...c, embedding: toBlob(vectors[i]), embeddingModel: model }));
  } catch (error) {
    console.warn(`[quarry] knowledge base: "${name}" indexed without embeddings (${errorMessage(error)}); full-text search still finds it`);
    return chunks;
  }
}
