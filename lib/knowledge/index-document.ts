// A file → what is stored and searched: its metadata and its chunks. Nothing is written here, so a
// file that fails (corrupt, encrypted, empty, oversized) leaves the collection exactly as it was.
import crypto from "node:crypto";
import { getEnv } from "../env";
import type { ChunkInput, DocumentMeta } from "../db/knowledge";
import { errorMessage } from "../errors";
import { chunkSections } from "./chunk";
import { documentError } from "./errors";
import { embeddingsEnabled, embedTexts } from "../ai/embed";
import type { UsageSink } from "../ai/usage";
import { toBlob } from "./embeddings";
import { parseDocument } from "./parse";

/** `onUsage`: whom the embedding requests are recorded against (the uploading user). */
export async function prepareDocument(name: string, bytes: Uint8Array, { onUsage }: { onUsage?: UsageSink } = {}): Promise<{ meta: DocumentMeta; chunks: ChunkInput[] }> {
  const env = getEnv();
  const parsed = await parseDocument(name, bytes, {
    maxBytes: env.KNOWLEDGE_MAX_FILE_BYTES,
    maxPages: env.KNOWLEDGE_MAX_PAGES,
    maxInflatedBytes: env.KNOWLEDGE_MAX_INFLATED_BYTES,
    maxInflateRatio: env.KNOWLEDGE_MAX_INFLATE_RATIO,
    timeoutMs: env.KNOWLEDGE_PARSE_TIMEOUT_MS,
  });
  const chunks = chunkSections(parsed.sections);
  // Refused whole, before any embedding is paid for or row written: a bomb once stored 262,144 chunks.
  if (chunks.length > env.KNOWLEDGE_MAX_CHUNKS) {
    throw documentError("too_large", name, `the document makes ${chunks.length} passages, more than the limit of ${env.KNOWLEDGE_MAX_CHUNKS} (KNOWLEDGE_MAX_CHUNKS).`);
  }
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
