// Which loader a file gets, decided by its name, and a check of its first bytes so that a file whose
// content is not what its name says (a PNG renamed .csv) gets a clear error instead of a table of junk.
import path from "node:path";

export type DatasetFormat = "csv" | "tsv" | "json" | "parquet" | "xlsx";

/** A file that cannot be loaded: the message names the file and the problem, for the user. */
export class DatasetError extends Error {
  constructor(readonly filename: string, problem: string) {
    super(`${filename}: ${problem}`);
    this.name = "DatasetError";
  }
}

const BY_EXTENSION: Record<string, DatasetFormat> = {
  ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json", ".ndjson": "json", ".jsonl": "json", ".parquet": "parquet", ".xlsx": "xlsx",
};

export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION);

export function formatOf(filename: string): DatasetFormat | null {
  return BY_EXTENSION[path.extname(filename).toLowerCase()] ?? null;
}

const MAGIC: { name: string; bytes: number[]; format?: DatasetFormat }[] = [
  { name: "a Parquet file", bytes: [0x50, 0x41, 0x52, 0x31], format: "parquet" },
  { name: "a ZIP archive (or an Excel workbook)", bytes: [0x50, 0x4b, 0x03, 0x04], format: "xlsx" },
  { name: "a PNG image", bytes: [0x89, 0x50, 0x4e, 0x47] },
  { name: "a JPEG image", bytes: [0xff, 0xd8, 0xff] },
  { name: "a GIF image", bytes: [0x47, 0x49, 0x46, 0x38] },
  { name: "a PDF document", bytes: [0x25, 0x50, 0x44, 0x46] },
  { name: "a gzip archive", bytes: [0x1f, 0x8b] },
  { name: "an old Excel (.xls) or Word file", bytes: [0xd0, 0xcf, 0x11, 0xe0] },
];

/** What the first bytes say the file is, when they say anything. */
function sniff(head: Buffer): { name: string; format?: DatasetFormat } | null {
  for (const m of MAGIC) if (m.bytes.every((b, i) => head[i] === b)) return m;
  // Text formats have no NUL bytes in their first kilobytes; anything else is binary.
  if (head.includes(0)) return { name: "binary data" };
  return null;
}

const FORMAT_NAMES: Record<DatasetFormat, string> = { csv: "CSV text", tsv: "tab-separated text", json: "JSON text", parquet: "a Parquet file", xlsx: "an Excel (.xlsx) workbook" };

/** Throws a DatasetError when the first bytes contradict the name's format. */
export function checkContent(filename: string, format: DatasetFormat, head: Buffer): void {
  const found = sniff(head);
  const textual = format === "csv" || format === "tsv" || format === "json";
  if (textual ? found === null : found?.format === format) return;
  const what = found ? found.name : "text";
  throw new DatasetError(filename, `the file is named as ${FORMAT_NAMES[format]} but its content looks like ${what}.`);
}
