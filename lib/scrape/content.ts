// What a response body is (HTML, plain text, PDF or something we cannot use) and how to decode it.
import { ScrapeError } from "./errors";

export type ContentKind = "html" | "text" | "pdf";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const TEXT_TYPES = new Set(["text/plain", "text/markdown", "text/x-markdown"]);
const PDF_TYPES = new Set(["application/pdf", "application/x-pdf"]);
// Generic types that servers also use for PDFs; the body's magic bytes decide.
const OPAQUE_TYPES = new Set([
  "application/octet-stream",
  "binary/octet-stream",
  "application/x-download",
  "application/force-download",
  "application/unknown",
]);

export interface ContentType {
  mime: string | null;
  charset: string | null;
}

export function parseContentType(header: string | null): ContentType {
  if (!header) return { mime: null, charset: null };
  const [essence, ...params] = header.split(";");
  const mime = essence.trim().toLowerCase() || null;
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param);
    if (match) charset = match[1].toLowerCase();
  }
  return { mime, charset };
}

function unsupported(mime: string): ScrapeError {
  return new ScrapeError("unsupported_type", `Unsupported content type ${mime.slice(0, 80)}`);
}

/** Before the body is read: refuse declared types that can never be used (images, archives, …). */
export function checkDeclaredType(header: string | null): void {
  const { mime } = parseContentType(header);
  if (!mime || HTML_TYPES.has(mime) || TEXT_TYPES.has(mime) || PDF_TYPES.has(mime) || OPAQUE_TYPES.has(mime)) return;
  throw unsupported(mime);
}

function isPdf(body: Buffer): boolean {
  return body.subarray(0, 5).toString("latin1") === "%PDF-";
}

// WHATWG MIME sniffing's "binary data bytes": control characters that never occur in text.
function looksBinary(head: Buffer): boolean {
  return head.some((b) => b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f));
}

const HTML_START = /^(?:\ufeff|\xef\xbb\xbf)?\s*<(?:!doctype\s+html|html|head|body|title|meta|script|style|!--|div|p|h1|table|a|br)[\s>/]/i;

/** What to extract the body as; sniffs when the server declared no type. */
export function detectKind(header: string | null, body: Buffer): ContentKind {
  const { mime } = parseContentType(header);
  if (isPdf(body) || (mime && PDF_TYPES.has(mime))) return "pdf";
  if (mime && HTML_TYPES.has(mime)) return "html";
  if (mime && TEXT_TYPES.has(mime)) return "text";
  if (mime) throw unsupported(mime);
  const head = body.subarray(0, 1024);
  if (looksBinary(head)) throw new ScrapeError("unsupported_type", "Unsupported content: binary data without a content type");
  return HTML_START.test(head.toString("latin1")) ? "html" : "text";
}

function bomEncoding(body: Buffer): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  return null;
}

function metaCharset(body: Buffer): string | null {
  const head = body.subarray(0, 4096).toString("latin1");
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  if (!match) return null;
  // A document that could be read as ASCII to find this tag is not UTF-16, whatever it says.
  return /^utf-?16/i.test(match[1]) ? "utf-8" : match[1];
}

function decoderFor(label: string | null): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label);
  } catch {
    return null; // unknown label: try the next source
  }
}

/** Decodes text with the byte-order mark, then the header's charset, then <meta charset>, then UTF-8. */
export function decodeBody(body: Buffer, kind: "html" | "text", headerCharset: string | null): string {
  const decoder =
    decoderFor(bomEncoding(body)) ??
    decoderFor(headerCharset) ??
    (kind === "html" ? decoderFor(metaCharset(body)) : null) ??
    new TextDecoder("utf-8");
  return decoder.decode(body);
}
