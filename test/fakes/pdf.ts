// A minimal, valid PDF 1.4 with one page of text (Helvetica, WinAnsi), built in code with a correct
// cross-reference table so that pdf.js (and the product's PDF extraction) can read it.

function pdfString(text: string): string {
  // Literal strings: escape the delimiters; keep to Latin-1 for WinAnsiEncoding.
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\xff]/g, "?")})`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Builds the PDF. `paragraphs` are wrapped to fit a US Letter page at 11 pt. */
export function buildPdf({ title, paragraphs }: { title: string; paragraphs: string[] }): Buffer {
  const content = [
    "BT",
    "/F1 16 Tf",
    "72 720 Td",
    "20 TL",
    `${pdfString(title)} Tj`,
    "T*",
    "/F1 11 Tf",
    "15 TL",
    ...paragraphs.flatMap((para) => [...wrap(para, 88).map((line) => `${pdfString(line)} Tj T*`), "T*"]),
    "ET",
  ].join("\n");

  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfString(title)} /Producer (Quarry test fakes) /CreationDate (D:20250301120000Z) >>`,
  ];

  // Header with a binary comment line, as the spec recommends for files with 8-bit data.
  let body = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, "latin1");
  // Each xref entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, type, CR LF.
  const entries = ["0000000000 65535 f\r\n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n\r\n`)];
  body += `xref\n0 ${objects.length + 1}\n${entries.join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
