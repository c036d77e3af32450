// An uploaded file → its format, title and chunks, or the documentError naming why not: what the
// document parsing worker process runs (lib/knowledge/parse-child.ts).
import { chunkSections, type Chunk } from "./chunk";
import { documentError } from "./errors";
import type { DocumentFormat } from "./formats";
import { parseDocument, type ParseLimits } from "./parse";

export interface PrepareInput {
  name: string;
  bytes: Uint8Array;
  limits: ParseLimits & { maxChunks: number };
}

export interface PreparedText {
  format: DocumentFormat;
  title: string | null;
  pageCount: number | null;
  chunks: Chunk[];
}

export async function prepareText({ name, bytes, limits }: PrepareInput): Promise<PreparedText> {
  const parsed = await parseDocument(name, bytes, limits);
  const chunks = chunkSections(parsed.sections);
  // Refused whole, before any embedding is paid for or row written: a bomb once stored 262,144 chunks.
  if (chunks.length > limits.maxChunks) {
    throw documentError("too_large", name, `the document makes ${chunks.length} passages, more than the limit of ${limits.maxChunks} (KNOWLEDGE_MAX_CHUNKS).`);
  }
  return { format: parsed.format, title: parsed.title, pageCount: parsed.pageCount, chunks };
}
