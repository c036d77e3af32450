// Why a delimited file does not load, in the user's terms: DuckDB's strict reader says only that its
// sniffer failed, so the file is read again here, quotes honoured, up to its first problem: a row of
// another width than the header, a quoted field never closed or text after a closing quote — each
// named with its line, its column and what was expected. (A quote inside an unquoted field is a
// character, as DuckDB reads it.)
import fs from "node:fs";

export interface CsvProblem {
  line: number;
  message: string;
}

type State = "fieldStart" | "unquoted" | "quoted" | "afterQuote";

export async function firstCsvProblem(filePath: string, delimiter: string): Promise<CsvProblem | null> {
  const stream = fs.createReadStream(filePath, { encoding: "utf8" });
  const header: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;
  let fields = 1;
  let expected = -1;
  let blank = true;
  let state: State = "fieldStart";
  const column = () => {
    const name = header[fields - 1];
    return name ? `column "${name}" (field ${fields})` : `field ${fields}`;
  };
  const shown = delimiter === "\t" ? "a tab" : `'${delimiter}'`;
  const endField = () => {
    if (expected < 0) header.push(field.trim());
    field = "";
  };
  const endRecord = (): CsvProblem | null => {
    endField();
    if (!blank) {
      if (expected < 0) expected = fields;
      else if (fields !== expected) return { line: recordLine, message: `ragged rows: line ${recordLine} has ${fields} fields where the header has ${expected}.` };
    }
    fields = 1;
    blank = true;
    state = "fieldStart";
    return null;
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      for (let i = 0; i < chunk.length; i++) {
        const ch = chunk[i];
        if (state === "fieldStart" && fields === 1 && blank) recordLine = line;
        if (ch === "\n") line++;
        if (state === "quoted") {
          if (ch === '"') state = "afterQuote";
          else if (expected < 0) field += ch;
          continue;
        }
        if (ch === "\r") continue;
        if (ch === delimiter) {
          endField();
          fields++;
          blank = false;
          state = "fieldStart";
        } else if (ch === "\n") {
          const found = endRecord();
          if (found) return found;
        } else if (ch === '"') {
          blank = false;
          if (state === "fieldStart") {
            state = "quoted";
            quoteLine = line;
          } else if (state === "afterQuote") {
            // A doubled quote inside a quoted field.
            state = "quoted";
            if (expected < 0) field += ch;
          } else if (expected < 0) {
            // Inside an unquoted field a quote is a character (as DuckDB reads it).
            field += ch;
          }
        } else if (state === "afterQuote") {
          return { line, message: `line ${line}, ${column()}: text after a closing quote (expected ${shown} or the end of the line).` };
        } else {
          blank = false;
          state = "unquoted";
          if (expected < 0) field += ch;
        }
      }
    }
    if (state === "quoted") return { line: quoteLine, message: `line ${quoteLine}, ${column()}: a quoted field is never closed (expected a closing quote before the end of the file).` };
    return endRecord();
  } finally {
    stream.destroy();
  }
}
