// Which parser a file goes to: its extension, checked against its first bytes (a renamed file must
// not reach the wrong parser, and an encrypted Office file is an OLE container, not a ZIP).
import { documentError } from "./errors";

export type DocumentFormat = "pdf" | "markdown" | "text" | "html" | "docx";

const BY_EXTENSION: Record<string, DocumentFormat> = {
  pdf: "pdf",
  md: "markdown",
  markdown: "markdown",
  txt: "text",
  text: "text",
  html: "html",
  htm: "html",
  docx: "docx",
};

export const ACCEPTED_EXTENSIONS = Object.keys(BY_EXTENSION).map((e) => `.${e}`);

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const PDF = [0x25, 0x50, 0x44, 0x46]; // %PDF
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0]; // an encrypted (or pre-2007) Office document

/** The format `name`'s extension names, or null when Quarry does not read it. */
export function formatByExtension(name: string): DocumentFormat | null {
  return BY_EXTENSION[name.toLowerCase().match(/\.([a-z]+)$/)?.[1] ?? ""] ?? null;
}

/** The format of `name`, or an error naming the file when it is not one Quarry reads. */
export function detectFormat(name: string, bytes: Uint8Array): DocumentFormat {
  const extension = name.toLowerCase().match(/\.([a-z]+)$/)?.[1] ?? "";
  const format = BY_EXTENSION[extension];
  if (!format) {
    throw documentError("unsupported", name, `Quarry reads ${ACCEPTED_EXTENSIONS.join(", ")} files, not this one.`);
  }
  if (bytes.length === 0) throw documentError("empty", name, "the file is empty.");
  if (format === "pdf" && !startsWith(bytes, PDF)) throw documentError("corrupt", name, "the file is not a PDF (it does not start with %PDF).");
  if (format === "docx") {
    if (startsWith(bytes, OLE)) throw documentError("encrypted", name, "the document is password-protected (or an old .doc renamed); save it unprotected as .docx.");
    if (!startsWith(bytes, ZIP)) throw documentError("corrupt", name, "the file is not a DOCX document (not a ZIP archive).");
  }
  return format;
}

/** The longest file name stored and shown, in characters (code points). */
export const MAX_FILE_NAME_CHARS = 200;

/**
 * A file name safe to show and store: its last path component, no control characters, at most
 * MAX_FILE_NAME_CHARS characters. A longer name is shortened in its middle, marked with "…", and keeps
 * its extension (which decides its format) and its beginning.
 */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (!clean || clean === "." || clean === "..") return "document";
  const chars = Array.from(clean); // by code point: a cut never splits a surrogate pair
  if (chars.length <= MAX_FILE_NAME_CHARS) return clean;
  // An extension is a dot and up to 10 letters or digits at the end (".docx", ".markdown").
  const extension = clean.match(/\.[a-z0-9]{1,10}$/i)?.[0] ?? "";
  const stem = chars.slice(0, MAX_FILE_NAME_CHARS - extension.length - 1).join("").trimEnd();
  return `${stem}…${extension}`;
}
