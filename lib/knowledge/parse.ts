// One entry point for every format: bytes → title and sections (page or heading kept), or an error
// naming the file (corrupt, encrypted, empty, oversized, unsupported).
import { documentError } from "./errors";
import { detectFormat, type DocumentFormat } from "./formats";
import { parseHtml } from "./parse-html";
import { parseMarkdown, parsePlainText } from "./parse-markdown";
import { parsePdf } from "./parse-pdf";
import type { ParsedSection } from "./sections";

export interface ParsedDocument {
  format: DocumentFormat;
  title: string | null;
  /** PDF pages; null for formats without pages. */
  pageCount: number | null;
  sections: ParsedSection[];
}

export interface ParseLimits {
  maxBytes: number;
  maxPages: number;
}

function decodeText(name: string, bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw documentError("corrupt", name, "the file is not UTF-8 text.", error);
  }
  if (text.includes("\u0000")) throw documentError("corrupt", name, "the file holds binary data, not text.");
  return text;
}

async function parseDocx(name: string, bytes: Uint8Array): Promise<{ title: string | null; sections: ParsedSection[] }> {
  const mammoth = await import("mammoth");
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }));
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 120) : "unknown error";
    throw documentError("corrupt", name, `the DOCX document is damaged and cannot be read (${detail}).`, error);
  }
  return parseHtml(html);
}

export async function parseDocument(name: string, bytes: Uint8Array, limits: ParseLimits): Promise<ParsedDocument> {
  if (bytes.length > limits.maxBytes) {
    throw documentError("too_large", name, `the file is ${bytes.length} bytes, more than the limit of ${limits.maxBytes} (KNOWLEDGE_MAX_FILE_BYTES).`);
  }
  const format = detectFormat(name, bytes);
  let parsed: { title: string | null; pageCount?: number; sections: ParsedSection[] };
  if (format === "pdf") parsed = await parsePdf(name, bytes, limits.maxPages);
  else if (format === "docx") parsed = await parseDocx(name, bytes);
  else if (format === "html") parsed = parseHtml(decodeText(name, bytes));
  else if (format === "markdown") parsed = parseMarkdown(decodeText(name, bytes));
  else parsed = parsePlainText(decodeText(name, bytes));
  if (parsed.sections.length === 0) throw documentError("empty", name, "the document has no text.");
  if (format !== "pdf" && parsed.sections.length > limits.maxPages) {
    throw documentError("too_large", name, `the document has ${parsed.sections.length} sections, more than the limit of ${limits.maxPages} (KNOWLEDGE_MAX_PAGES).`);
  }
  return { format, title: parsed.title, pageCount: parsed.pageCount ?? null, sections: parsed.sections };
}
