// How a dataset was read, in words for the page: its format (by its name, as the loader decides it),
// a delimited text's delimiter, and its encoding when not UTF-8 — from the loader's note
// (lib/datasets/load.ts: "Latin-1 (Windows-1252) text, semicolon-separated"; null for UTF-8 with its
// name's own delimiter).

const FORMATS: Record<string, string> = {
  csv: "CSV", tsv: "TSV", tab: "TSV", json: "JSON", ndjson: "NDJSON", jsonl: "JSON Lines", parquet: "Parquet", xlsx: "Excel workbook",
};

export function datasetReadAs(filename: string, readAs: string | null | undefined): string {
  const ext = /\.([^.]+)$/.exec(filename.toLowerCase())?.[1] ?? "";
  const notes = (readAs ?? "").split(/,\s*/).map((n) => n.trim()).filter(Boolean);
  const delimited = ext === "csv" || ext === "tsv" || ext === "tab";
  const delimiter = notes.find((n) => n.endsWith("-separated")) ?? (ext === "csv" ? "comma-separated" : delimited ? "tab-separated" : null);
  const encoding = notes.find((n) => n.endsWith(" text"))?.replace(/ text$/, "");
  return [FORMATS[ext] ?? (ext ? ext.toUpperCase() : "file"), delimited ? delimiter : null, encoding ? `${encoding} encoding` : null].filter(Boolean).join(" · ");
}
