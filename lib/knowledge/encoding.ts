// The character encoding of an uploaded text file (.txt, .md, .html): a byte-order mark decides
// (UTF-8, UTF-16LE, UTF-16BE); without one, valid UTF-8 is UTF-8; then UTF-16 without a mark (text
// whose every other byte is zero); then, for HTML, the charset its <meta> declares; else the
// single-byte encoding Windows and older Unix editors write: Windows-1252 when a byte of 0x80–0x9F
// (€, curly quotes, dashes: control characters in Latin-1) is present, else ISO-8859-1 (Latin-1),
// which are the same characters there. The encoding is named on the document; UTF-8 is the default.

export type TextEncodingName = "UTF-8" | "UTF-16LE" | "UTF-16BE" | "Windows-1252" | "ISO-8859-1" | (string & {});

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

const startsWith = (bytes: Uint8Array, magic: number[]) => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

/** UTF-16 without a byte-order mark: in ASCII-heavy text, one byte of each pair is zero. */
function utf16WithoutMark(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const pairs = Math.min(Math.floor(bytes.length / 2), 4096);
  if (pairs < 2 || bytes.length % 2 !== 0) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < pairs; i++) {
    if (bytes[2 * i] === 0) evenZero++;
    if (bytes[2 * i + 1] === 0) oddZero++;
  }
  if (oddZero > pairs * 0.6 && evenZero < pairs * 0.05) return "utf-16le";
  if (evenZero > pairs * 0.6 && oddZero < pairs * 0.05) return "utf-16be";
  return null;
}

/** The charset an HTML file declares in its first 1,024 bytes (<meta charset> or http-equiv), as the HTML standard prescans. */
function declaredHtmlCharset(bytes: Uint8Array): string | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  const label = head.match(/<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i)?.[1];
  if (!label) return null;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null; // a label this runtime does not know
  }
}

// Windows-1252's characters for bytes 0x80–0x9F (the five it leaves undefined read as the C1 controls,
// as the WHATWG decoder reads them). Node's TextDecoder("windows-1252") reads these bytes as Latin-1's
// controls, so the table is applied here.
const CP1252_C1 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = new TextDecoder("latin1").decode(bytes);
  return latin1.replace(/[\u0080-\u009f]/g, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]);
}

const NAMES: Record<string, TextEncodingName> = { "utf-8": "UTF-8", "utf-16le": "UTF-16LE", "utf-16be": "UTF-16BE", "windows-1252": "Windows-1252" };
const nameOf = (label: string): TextEncodingName => NAMES[label] ?? label.toUpperCase();

/**
 * Decodes a text file's bytes; `html`: a declared <meta charset> is honoured when the bytes are not
 * UTF-8. A byte-order mark is not part of the text. Never throws: every byte sequence is some
 * Windows-1252 text (the caller refuses binary data by its NUL characters).
 */
export function decodeTextBytes(bytes: Uint8Array, { html = false }: { html?: boolean } = {}): DecodedText {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)), encoding: "UTF-8" };
  if (startsWith(bytes, [0xff, 0xfe])) return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "UTF-16LE" };
  if (startsWith(bytes, [0xfe, 0xff])) return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)), encoding: "UTF-16BE" };
  const utf16 = utf16WithoutMark(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), encoding: nameOf(utf16) };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), encoding: "UTF-8" };
  } catch {
    // not UTF-8: below
  }
  const declared = html ? declaredHtmlCharset(bytes) : null;
  if (declared && declared !== "utf-8" && declared !== "windows-1252" && declared !== "iso-8859-1") return { text: new TextDecoder(declared).decode(bytes), encoding: nameOf(declared) };
  // Bytes 0x80–0x9F are printable in Windows-1252 only; without them both encodings read the same.
  const c1 = bytes.some((b) => b >= 0x80 && b <= 0x9f);
  return { text: decodeWindows1252(bytes), encoding: c1 ? "Windows-1252" : "ISO-8859-1" };
}

/** The encoding a stored text document was read in, or null for PDF and DOCX (their own containers decide). */
export function textEncodingOf(format: string, bytes: Uint8Array): TextEncodingName | null {
  if (format !== "text" && format !== "markdown" && format !== "html") return null;
  return decodeTextBytes(bytes, { html: format === "html" }).encoding;
}
