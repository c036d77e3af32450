// A file → what is stored and searched: its metadata and its chunks. Nothing is written here, so a
// file that fails (corrupt, encrypted, empty, oversized) leaves the collection exactly as it was.
import crypto from "node:crypto";
import { getEnv } from "../env";
import type { ChunkInput, DocumentMeta } from "../db/knowledge";
import { chunkSections } from "./chunk";
import { parseDocument } from "./parse";

export async function prepareDocument(name: string, bytes: Uint8Array): Promise<{ meta: DocumentMeta; chunks: ChunkInput[] }> {
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
  return { meta, chunks };
}
