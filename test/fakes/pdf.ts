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

function pageContent(title: string | null, paragraphs: string[]): string {
  return [
    "BT",
    "72 720 Td",
    ...(title ? ["/F1 16 Tf", "20 TL", `${pdfString(title)} Tj`, "T*"] : []),
    "/F1 11 Tf",
    "15 TL",
    ...paragraphs.flatMap((para) => [...wrap(para, 88).map((line) => `${pdfString(line)} Tj T*`), "T*"]),
    "ET",
  ].join("\n");
}

/** Builds the PDF. `paragraphs` are wrapped to fit a US Letter page at 11 pt. */
export function buildPdf({ title, paragraphs }: { title: string; paragraphs: string[] }): Buffer {
  return buildPdfPages({ title, pages: [paragraphs] });
}

/**
 * A PDF with one page per entry of `pages` (the title heads the first). `encrypted` adds a standard
 * security handler whose user password is not empty, so a reader cannot open it without one.
 */
export function buildPdfPages({ title, pages, encrypted = false }: { title: string; pages: string[][]; encrypted?: boolean }): Buffer {
  const n = pages.length;
  // Objects: 1 catalog, 2 pages, 3 font, 4 info, then per page: the page and its content stream.
  const pageId = (i: number) => 5 + 2 * i;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageId(i)} 0 R`).join(" ")}] /Count ${n} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Title ${pdfString(title)} /Producer (Quarry test fakes) /CreationDate (D:20250301120000Z) >>`,
  ];
  pages.forEach((paragraphs, i) => {
    const content = pageContent(i === 0 ? title : null, paragraphs);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId(i) + 1} 0 R >>`);
    objects.push(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
  });
  if (encrypted) {
    // O and U are 32 arbitrary bytes: the empty password does not match U, so PDF.js asks for one.
    const hex = (b: number) => "<" + Buffer.alloc(32, b).toString("hex") + ">";
    objects.push(`<< /Filter /Standard /V 1 /R 2 /O ${hex(0x4f)} /U ${hex(0x55)} /P -44 >>`);
  }

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
  const encrypt = encrypted ? ` /Encrypt ${objects.length} 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]` : "";
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R${encrypt} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
