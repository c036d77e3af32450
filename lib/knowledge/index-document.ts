// A file → what is stored and searched: its metadata and its chunks. Nothing is written here, so a
// file that fails (corrupt, encrypted, empty, oversized) leaves the collection exactly as it was.
import crypto from "node:crypto";
import { getEnv } from "../env";
import type { ChunkInput, DocumentMeta } from "../db/knowledge";
import { errorMessage } from "../errors";
import { documentError } from "./errors";
import { embeddingsEnabled, embedTexts } from "../ai/embed";
import type { UsageSink } from "../ai/usage";
import { runInSandbox, SandboxLimitError, SandboxPool } from "../sandbox/pool";
import { toBlob } from "./embeddings";
import type { PrepareInput, PreparedText } from "./prepare-text";

const globalForPool = globalThis as unknown as { quarryDocumentPool?: SandboxPool };

/**
 * Uploaded documents are parsed and chunked in worker processes (lib/knowledge/parse-child.ts), never
 * in the server's: each under an OS memory limit (KNOWLEDGE_PARSE_MEMORY_MB) and each document under
 * a wall-clock limit (KNOWLEDGE_PARSE_TIMEOUT_MS). A document past either fails alone, naming it; an
 * HTML file of 100,000 nested divs once held the server's main thread for 9.5 s.
 */
function documentPool(): SandboxPool {
  const env = getEnv();
  globalForPool.quarryDocumentPool ??= new SandboxPool({
    label: "document parsing",
    worker: "document",
    size: env.KNOWLEDGE_PARSE_WORKERS,
    memoryMb: env.KNOWLEDGE_PARSE_MEMORY_MB,
    memorySetting: "KNOWLEDGE_PARSE_MEMORY_MB",
    timeoutMs: env.KNOWLEDGE_PARSE_TIMEOUT_MS,
    timeoutSetting: "KNOWLEDGE_PARSE_TIMEOUT_MS",
    // Uploads come now and then: an idle process gives its memory back.
    idleMs: 60_000,
  });
  return globalForPool.quarryDocumentPool;
}

/** Ends the document parsing processes (tests, and processes that end). */
export function closeDocumentPool(): void {
  globalForPool.quarryDocumentPool?.close();
  globalForPool.quarryDocumentPool = undefined;
}

async function prepareInWorker(input: PrepareInput): Promise<PreparedText> {
  try {
    return await runInSandbox<PreparedText>(documentPool(), "prepare", input);
  } catch (error) {
    if (!(error instanceof SandboxLimitError)) throw error;
    const detail =
      error.limit === "timeout"
        ? `reading the document took longer than ${error.value} ms, the limit (${error.setting}).`
        : `reading the document went past the memory limit of ${error.value} MB of its worker process (${error.setting}).`;
    throw documentError("too_large", input.name, detail, error);
  }
}

/** `onUsage`: whom the embedding requests are recorded against (the uploading user). */
export async function prepareDocument(name: string, bytes: Uint8Array, { onUsage }: { onUsage?: UsageSink } = {}): Promise<{ meta: DocumentMeta; chunks: ChunkInput[] }> {
  const env = getEnv();
  const parsed = await prepareInWorker({
    name,
    bytes,
    limits: {
      maxBytes: env.KNOWLEDGE_MAX_FILE_BYTES,
      maxPages: env.KNOWLEDGE_MAX_PAGES,
      maxInflatedBytes: env.KNOWLEDGE_MAX_INFLATED_BYTES,
      maxInflateRatio: env.KNOWLEDGE_MAX_INFLATE_RATIO,
      timeoutMs: env.KNOWLEDGE_PARSE_TIMEOUT_MS,
      maxChunks: env.KNOWLEDGE_MAX_CHUNKS,
    },
  });
  const chunks: ChunkInput[] = parsed.chunks;
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
