// A ZIP archive (DOCX) is inflated here, counting bytes, BEFORE any XML parser sees it: a 300 KB DOCX
// whose word/document.xml inflated to 300 MB once held the server for 963 s at 5.8 GB (issue 52).
// The entries are found as JSZip (mammoth's reader) finds them — the central directory, then each
// local header — and the bytes actually inflated are counted as they come, since the sizes an archive
// declares can lie. Nothing inflated is kept: this only proves the archive is within its limits.
import { Inflate, unzipSync } from "fflate";
import { documentError } from "./errors";

export interface ArchiveLimits {
  /** Bytes all entries may inflate to together (KNOWLEDGE_MAX_INFLATED_BYTES). */
  maxInflatedBytes: number;
  /** Inflated ÷ compressed size an entry may reach past RATIO_GRACE_BYTES, counted as it comes (KNOWLEDGE_MAX_INFLATE_RATIO). */
  maxInflateRatio: number;
}

// An entry this small is never a bomb, whatever its ratio (a blank styles part compresses ~200:1);
// Apache POI's zip-bomb check has the same kind of grace.
const RATIO_GRACE_BYTES = 1024 * 1024;
// Compressed bytes fed to the inflater at once: deflate inflates at most ~1032:1, so one step holds
// at most ~4 MiB of output however hostile the stream.
const STEP = 4 * 1024;

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

function corrupt(name: string, detail: string): never {
  throw documentError("corrupt", name, `the archive is damaged and cannot be read (${detail}).`);
}

/** The central directory's entries (sizes and offset from a ZIP64 extra field when the 32-bit ones are full). */
function entries(name: string, zip: Buffer): Entry[] {
  // The end record sits in the last 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) corrupt(name, "no central directory");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_HEADER) corrupt(name, "bad central directory entry");
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const entry: Entry = {
      name: zip.toString("utf8", at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    };
    const uncompressed = zip.readUInt32LE(at + 24);
    if (entry.compressedSize === 0xffffffff || entry.localOffset === 0xffffffff || uncompressed === 0xffffffff) {
      zip64(name, zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry, uncompressed);
    }
    out.push(entry);
    at += 46 + nameLength + extraLength + zip.readUInt16LE(at + 32);
  }
  return out;
}

/** Fills the entry's full fields from its ZIP64 extra field (id 1), which lists only those that are full, in this order. */
function zip64(name: string, extra: Buffer, entry: Entry, uncompressed: number) {
  for (let i = 0; i + 4 <= extra.length; i += 4 + extra.readUInt16LE(i + 2)) {
    if (extra.readUInt16LE(i) !== 1) continue;
    let at = i + 4;
    const next = () => {
      if (at + 8 > extra.length) corrupt(name, "bad ZIP64 field");
      const value = Number(extra.readBigUInt64LE(at));
      at += 8;
      return value;
    };
    if (uncompressed === 0xffffffff) next(); // the declared size is not trusted anyway
    if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
    if (entry.localOffset === 0xffffffff) entry.localOffset = next();
    return;
  }
  corrupt(name, "missing ZIP64 field");
}

/**
 * Throws a document error naming the limit when the archive's entries inflate to more than
 * `maxInflatedBytes` together, or an entry past the grace inflates more than `maxInflateRatio`:1;
 * stops inflating at the first byte over, so a bomb costs milliseconds and a few MiB.
 */
export function checkArchive(name: string, bytes: Uint8Array, limits: ArchiveLimits): void {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  const overTotal = () =>
    documentError("too_large", name, `the archive inflates to more than ${limits.maxInflatedBytes} bytes, the limit (KNOWLEDGE_MAX_INFLATED_BYTES).`);
  for (const entry of entries(name, zip)) {
    const at = entry.localOffset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER) corrupt(name, `bad local header of ${entry.name}`);
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    const data = zip.subarray(start, start + entry.compressedSize);
    if (data.length < entry.compressedSize) corrupt(name, `${entry.name} is cut short`);
    if (entry.method === 0) {
      total += data.length;
      if (total > limits.maxInflatedBytes) throw overTotal();
      continue;
    }
    // Other methods (deflate64, bzip2 …) no DOCX reader inflates; they fail in the parser, unread here.
    if (entry.method !== 8) continue;
    // The ratio is of the bytes inflated so far to the compressed bytes fed so far (as Apache POI
    // counts), so a bomb is caught a MiB in, not when its whole cap is spent.
    let inflated = 0;
    let fed = 0;
    let stop: Error | undefined;
    const inflater = new Inflate((chunk) => {
      inflated += chunk.length;
      total += chunk.length;
      if (total > limits.maxInflatedBytes) stop ??= overTotal();
      else if (inflated > RATIO_GRACE_BYTES && inflated > limits.maxInflateRatio * fed) {
        stop ??= documentError(
          "too_large",
          name,
          `${entry.name} inflates more than ${limits.maxInflateRatio}:1, the limit (KNOWLEDGE_MAX_INFLATE_RATIO); this looks like a zip bomb.`,
        );
      }
    });
    for (let offset = 0; offset < data.length; offset += STEP) {
      fed = Math.min(data.length, offset + STEP);
      try {
        inflater.push(data.subarray(offset, offset + STEP), offset + STEP >= data.length);
      } catch (error) {
        // fflate throws when the stream is damaged; the parser would report it as well, with less detail.
        throw documentError("corrupt", name, `the archive is damaged and cannot be read (${entry.name}: ${error instanceof Error ? error.message : "bad data"}).`, error);
      }
      if (stop) throw stop;
    }
  }
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/**
 * The title Word keeps in the document's properties (docProps/core.xml, dc:title: File › Info ›
 * Title), or null when it has none. Call after checkArchive: only that small part is inflated.
 */
export function docxCoreTitle(bytes: Uint8Array): string | null {
  let xml: string;
  try {
    const part = unzipSync(bytes, { filter: (f) => f.name === "docProps/core.xml" })["docProps/core.xml"];
    if (!part) return null;
    xml = new TextDecoder().decode(part);
  } catch {
    return null; // a damaged properties part: the document's text decides its title
  }
  const raw = xml.match(/<dc:title(?:\s[^>]*)?>([\s\S]*?)<\/dc:title>/)?.[1];
  if (!raw) return null;
  const title = raw
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
      if (entity[0] !== "#") return XML_ENTITIES[entity] ?? whole;
      const code = entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, " ")
    .trim();
  return title ? title.slice(0, 500) : null;
}
