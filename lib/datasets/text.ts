// How a text dataset is written: its encoding (UTF-8; UTF-16 with a byte order mark; anything else
// that is not valid UTF-8 is read as Windows-1252, the superset of Latin-1 that spreadsheets on
// Windows write) and, for delimited text, its delimiter (a "CSV" from a European spreadsheet is
// semicolon-separated). A file not in UTF-8 is copied as UTF-8 for DuckDB, which reads only UTF-8,
// and the encoding is named to the user.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";

export type Encoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

export const ENCODING_NAMES: Record<Encoding, string> = {
  "utf-8": "UTF-8", "utf-16le": "UTF-16 (little-endian)", "utf-16be": "UTF-16 (big-endian)", "windows-1252": "Latin-1 (Windows-1252)",
};

/** The UTF-16 encoding a byte order mark announces, if any. */
export function utf16Bom(head: Uint8Array): Encoding | null {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return null;
}

/** The file's encoding: a UTF-16 byte order mark, else UTF-8 if the whole file is valid UTF-8, else Windows-1252. */
export async function detectEncoding(filePath: string, head: Uint8Array): Promise<Encoding> {
  const bom = utf16Bom(head);
  if (bom) return bom;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const chunk of fs.createReadStream(filePath, { highWaterMark: 1 << 20 })) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return "utf-8";
  } catch {
    return "windows-1252";
  }
}

/** A UTF-8 copy of the file in `dir` (a hidden name of its own); the caller removes it. */
export async function utf8Copy(filePath: string, encoding: Encoding, dir: string): Promise<string> {
  const target = path.join(dir, `.utf8-${randomBytes(6).toString("hex")}${path.extname(filePath)}`);
  const decoder = new TextDecoder(encoding);
  await pipeline(
    fs.createReadStream(filePath, { highWaterMark: 1 << 20 }),
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        done(null, Buffer.from(decoder.decode(chunk, { stream: true }), "utf8"));
      },
      flush(done) {
        done(null, Buffer.from(decoder.decode(), "utf8"));
      },
    }),
    fs.createWriteStream(target, { flags: "wx" }),
  );
  return target;
}

/** The first bytes of a file as text in its encoding. */
export function decodeHead(head: Uint8Array, encoding: Encoding): string {
  return new TextDecoder(encoding).decode(head);
}

export const DELIMITER_NAMES: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe" };

/** Fields per record of the first records of a text (quotes honoured; an unfinished last record dropped). */
function fieldCounts(text: string, delimiter: string, maxRecords = 50): number[] {
  const counts: number[] = [];
  let fields = 1;
  let inQuotes = false;
  let blank = true;
  for (let i = 0; i < text.length && counts.length < maxRecords; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') inQuotes = false;
    } else if (ch === '"') {
      inQuotes = true;
      blank = false;
    } else if (ch === delimiter) {
      fields++;
      blank = false;
    } else if (ch === "\n") {
      if (!blank) counts.push(fields);
      fields = 1;
      blank = true;
    } else if (ch !== "\r") {
      blank = false;
    }
  }
  return counts;
}

/**
 * The delimiter of a delimited text's head: the first candidate (the name's own first) that splits
 * the header into two fields or more and every record alike; else the one under which most records
 * have the header's width (so a ragged file still fails on its ragged line, not as one column).
 */
export function sniffDelimiter(head: string, preferred: string): string {
  // Only whole lines: the head may end inside a record.
  const text = head.includes("\n") ? head.slice(0, head.lastIndexOf("\n") + 1) : `${head}\n`;
  const candidates = [...new Set([preferred, ",", ";", "\t", "|"])];
  let best = { delimiter: preferred, share: 0 };
  for (const d of candidates) {
    const counts = fieldCounts(text, d);
    if (counts.length === 0 || counts[0] < 2) continue;
    const alike = counts.filter((c) => c === counts[0]).length;
    if (alike === counts.length) return d;
    if (alike / counts.length > best.share) best = { delimiter: d, share: alike / counts.length };
  }
  return best.delimiter;
}
