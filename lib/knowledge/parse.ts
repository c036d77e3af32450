// One entry point for every format: bytes → title and sections (page or heading kept), or an error
// naming the file (corrupt, encrypted, empty, oversized, unsupported).
import { AppError } from "../errors";
import { decodeTextBytes } from "./encoding";
import { documentError } from "./errors";
import { detectFormat, type DocumentFormat } from "./formats";
import { parseHtml } from "./parse-html";
import { parseMarkdown, parsePlainText } from "./parse-markdown";
import { parsePdf } from "./parse-pdf";
import { checkArchive, docxCoreTitle, type ArchiveLimits } from "./parse-zip";
import type { ParsedSection } from "./sections";

export interface ParsedDocument {
  format: DocumentFormat;
  title: string | null;
  /** PDF pages; null for formats without pages. */
  pageCount: number | null;
  sections: ParsedSection[];
}

export interface ParseLimits extends ArchiveLimits {
  maxBytes: number;
  maxPages: number;
  /** Milliseconds reading a document may take (KNOWLEDGE_PARSE_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * The time bound: checked between the stages of parsing and raced against the asynchronous ones, so a
 * slow document fails with the limit named and nothing is indexed. A synchronous stage that has
 * started still runs to its end in this process; the inflation cap (checkArchive) is what keeps
 * such a stage small.
 */
class Deadline {
  private readonly end: number;
  constructor(
    private readonly name: string,
    private readonly ms: number,
  ) {
    this.end = Date.now() + ms;
  }
  private error() {
    return documentError("too_large", this.name, `reading the document took longer than ${this.ms} ms, the limit (KNOWLEDGE_PARSE_TIMEOUT_MS).`);
  }
  check(): void {
    if (Date.now() > this.end) throw this.error();
  }
  async race<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.error()), Math.max(0, this.end - Date.now()));
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The file's text in its own encoding (UTF-8, UTF-16 with or without a mark, a declared HTML charset, else Windows-1252 / Latin-1: see encoding.ts). */
function decodeText(name: string, bytes: Uint8Array, html = false): string {
  const { text } = decodeTextBytes(bytes, { html });
  if (text.includes("\u0000")) throw documentError("corrupt", name, "the file holds binary data, not text.");
  return text;
}

async function parseDocx(name: string, bytes: Uint8Array, limits: ParseLimits, deadline: Deadline): Promise<{ title: string | null; sections: ParsedSection[] }> {
  // Inflation is bounded before mammoth (which inflates every part it reads, unbounded) sees the file.
  checkArchive(name, bytes, limits);
  deadline.check();
  const mammoth = await import("mammoth");
  // Images are never read: only text is indexed, and mammoth would otherwise inline each as base64.
  const convertImage = mammoth.images.imgElement(async () => ({ src: "" }));
  let html: string;
  try {
    ({ value: html } = await deadline.race(mammoth.convertToHtml({ buffer: Buffer.from(bytes) }, { convertImage })));
  } catch (error) {
    if (error instanceof AppError) throw error;
    const detail = error instanceof Error ? error.message.slice(0, 120) : "unknown error";
    throw documentError("corrupt", name, `the DOCX document is damaged and cannot be read (${detail}).`, error);
  }
  deadline.check();
  const parsed = parseHtml(html);
  // Word's own title (File › Info › Title) names the document; else its first heading.
  return { ...parsed, title: docxCoreTitle(bytes) ?? parsed.title };
}

export async function parseDocument(name: string, bytes: Uint8Array, limits: ParseLimits): Promise<ParsedDocument> {
  if (bytes.length > limits.maxBytes) {
    throw documentError("too_large", name, `the file is ${bytes.length} bytes, more than the limit of ${limits.maxBytes} (KNOWLEDGE_MAX_FILE_BYTES).`);
  }
  const deadline = new Deadline(name, limits.timeoutMs);
  const format = detectFormat(name, bytes);
  let parsed: { title: string | null; pageCount?: number; sections: ParsedSection[] };
  if (format === "pdf") parsed = await deadline.race(parsePdf(name, bytes, limits.maxPages));
  else if (format === "docx") parsed = await parseDocx(name, bytes, limits, deadline);
  else if (format === "html") parsed = parseHtml(decodeText(name, bytes, true));
  else if (format === "markdown") parsed = parseMarkdown(decodeText(name, bytes));
  else parsed = parsePlainText(decodeText(name, bytes));
  deadline.check();
  if (parsed.sections.length === 0) throw documentError("empty", name, "the document has no text.");
  if (format !== "pdf" && parsed.sections.length > limits.maxPages) {
    throw documentError("too_large", name, `the document has ${parsed.sections.length} sections, more than the limit of ${limits.maxPages} (KNOWLEDGE_MAX_PAGES).`);
  }
  return { format, title: parsed.title, pageCount: parsed.pageCount ?? null, sections: parsed.sections };
}
