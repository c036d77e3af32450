// Finding the first row of a delimited file whose field count differs from the header's: DuckDB only
// says its sniffer failed, and the user needs the line. Quotes are honoured (a quoted delimiter or
// line break is part of its field).
import fs from "node:fs";

export async function firstRaggedLine(filePath: string, delimiter: string): Promise<{ line: number; fields: number; expected: number } | null> {
  const stream = fs.createReadStream(filePath, { encoding: "utf8" });
  let line = 1;
  let recordLine = 1;
  let fields = 1;
  let expected = -1;
  let inQuotes = false;
  let atRecordStart = true;
  let blank = true;
  const endRecord = (): { line: number; fields: number; expected: number } | null => {
    if (!blank) {
      if (expected < 0) expected = fields;
      else if (fields !== expected) return { line: recordLine, fields, expected };
    }
    fields = 1;
    blank = true;
    atRecordStart = true;
    return null;
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      for (let i = 0; i < chunk.length; i++) {
        const ch = chunk[i];
        if (atRecordStart) {
          recordLine = line;
          atRecordStart = false;
        }
        if (ch === "\n") line++;
        if (inQuotes) {
          if (ch === '"') inQuotes = false;
          continue;
        }
        if (ch === '"') {
          inQuotes = true;
          blank = false;
        } else if (ch === delimiter) {
          fields++;
          blank = false;
        } else if (ch === "\n") {
          const found = endRecord();
          if (found) return found;
        } else if (ch !== "\r") {
          blank = false;
        }
      }
    }
    return endRecord();
  } finally {
    stream.destroy();
  }
}
