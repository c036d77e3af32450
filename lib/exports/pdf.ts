// The PDF export, typeset on the server with PDFKit (pure JavaScript: no browser, no native
// code, so it runs on any server the app runs on): title and header, the report with its
// headings as bookmarks, citations that jump to the numbered source list, and page numbers.
import PDFDocument from "pdfkit";
import { markdownBlocks, plainOf, type Block, type Inline } from "./blocks";
import { percent, type ExportDocument } from "./document";
import { winAnsi } from "./latin";

export { winAnsi };

type Pdf = InstanceType<typeof PDFDocument>;
type Outline = Pdf["outline"];

const MARGIN = 64;
const BODY = 10.5;
const INK = "#1f2328";
const MUTED = "#59636e";
const LINK = "#0b57d0";
const FONTS = { regular: "Helvetica", bold: "Helvetica-Bold", italic: "Helvetica-Oblique", boldItalic: "Helvetica-BoldOblique", code: "Courier" };

function fontOf(i: Inline): string {
  if (i.code) return FONTS.code;
  if (i.bold && i.italic) return FONTS.boldItalic;
  if (i.bold) return FONTS.bold;
  if (i.italic) return FONTS.italic;
  return FONTS.regular;
}

interface Ctx {
  pdf: Pdf;
  /** Citation URL → its number in the source list (a citation jumps there). */
  numberOf: Map<string, number>;
  width: number;
}

/** A run of inlines as one flowing paragraph; citations "[n]" link to source n. */
function writeInlines(ctx: Ctx, inlines: Inline[], options: { size?: number; indent?: number; color?: string; prefix?: string } = {}) {
  const { pdf } = ctx;
  const size = options.size ?? BODY;
  const runs: { text: string; font: string; color: string; link?: string; goTo?: string }[] = [];
  if (options.prefix) runs.push({ text: options.prefix, font: FONTS.regular, color: options.color ?? INK });
  for (const i of inlines) {
    const n = i.href ? ctx.numberOf.get(i.href) : undefined;
    const isCitation = n !== undefined && /^\d+$/.test(i.text.trim());
    const text = winAnsi(isCitation ? `[${n}]` : i.text);
    if (!text) continue;
    runs.push({ text, font: fontOf(i), color: i.href ? LINK : (options.color ?? INK), ...(isCitation ? { goTo: `source-${n}` } : i.href ? { link: i.href } : {}) });
  }
  if (runs.length === 0) return;
  const x = MARGIN + (options.indent ?? 0);
  const width = ctx.width - (options.indent ?? 0);
  runs.forEach((r, k) => {
    pdf.font(r.font).fontSize(size).fillColor(r.color);
    const last = k === runs.length - 1;
    // PDFKit carries a continued text's options over to the next piece unless they are given, and
    // `undefined` counts as not given: null ends the previous piece's link.
    const none = null as unknown as undefined;
    const common = { continued: !last, lineGap: 2.5, link: r.link ?? none, goTo: r.goTo ?? none, underline: false };
    if (k === 0) pdf.text(r.text, x, undefined, { ...common, width });
    else pdf.text(r.text, common);
  });
  pdf.fillColor(INK);
}

function heading(ctx: Ctx, block: Extract<Block, { kind: "heading" }>, outline: { root: Outline; current: ReturnType<Outline["addItem"]> | null }) {
  const { pdf } = ctx;
  const size = block.level <= 2 ? 15 : block.level === 3 ? 12.5 : 11;
  if (pdf.y > pdf.page.height - MARGIN - 80) pdf.addPage();
  pdf.moveDown(0.8);
  const title = winAnsi(plainOf(block.inlines));
  // Bookmarks: a level-2 heading at the top, deeper ones under the last of it.
  if (block.level <= 2 || !outline.current) outline.current = outline.root.addItem(title);
  else outline.current.addItem(title);
  pdf.font(FONTS.bold).fontSize(size).fillColor(INK).text(title, MARGIN, undefined, { width: ctx.width });
  pdf.moveDown(0.35);
}

function table(ctx: Ctx, block: Extract<Block, { kind: "table" }>) {
  const { pdf } = ctx;
  const columns = Math.max(block.header.length, ...block.rows.map((r) => r.length), 1);
  const colWidth = ctx.width / columns;
  const rows = [block.header, ...block.rows];
  rows.forEach((row, r) => {
    const cells = Array.from({ length: columns }, (_, c) => winAnsi(plainOf(row[c] ?? [])));
    pdf.font(r === 0 ? FONTS.bold : FONTS.regular).fontSize(BODY - 1);
    const height = Math.max(...cells.map((t) => pdf.heightOfString(t || " ", { width: colWidth - 8 }))) + 6;
    if (pdf.y + height > pdf.page.height - MARGIN) pdf.addPage();
    const y = pdf.y;
    cells.forEach((t, c) => pdf.text(t, MARGIN + c * colWidth + 4, y + 3, { width: colWidth - 8 }));
    pdf.moveTo(MARGIN, y + height).lineTo(MARGIN + ctx.width, y + height).lineWidth(0.5).strokeColor("#d0d7de").stroke();
    pdf.x = MARGIN;
    pdf.y = y + height;
  });
  pdf.moveDown(0.6);
}

function block(ctx: Ctx, b: Block, outline: { root: Outline; current: ReturnType<Outline["addItem"]> | null }) {
  const { pdf } = ctx;
  switch (b.kind) {
    case "heading":
      return heading(ctx, b, outline);
    case "paragraph":
      writeInlines(ctx, b.inlines);
      return pdf.moveDown(0.6);
    case "quote":
      writeInlines(ctx, b.inlines, { indent: 16, color: MUTED });
      return pdf.moveDown(0.6);
    case "list":
      for (const item of b.items) {
        writeInlines(ctx, item.inlines, { indent: 14 + item.depth * 14, prefix: b.ordered ? `${item.n}. ` : "•  " });
        pdf.moveDown(0.25);
      }
      return pdf.moveDown(0.4);
    case "code":
      pdf.font(FONTS.code).fontSize(BODY - 1.5).fillColor(INK).text(winAnsi(b.text), MARGIN + 10, undefined, { width: ctx.width - 10 });
      return pdf.moveDown(0.6);
    case "table":
      return table(ctx, b);
    case "rule":
      pdf.moveTo(MARGIN, pdf.y).lineTo(MARGIN + ctx.width, pdf.y).lineWidth(0.5).strokeColor("#d0d7de").stroke();
      return pdf.moveDown(0.6);
  }
}

export function pdfExport(doc: ExportDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: { Title: winAnsi(doc.title), Author: "Quarry", Subject: winAnsi(doc.question.slice(0, 300)), CreationDate: new Date(`${doc.date}T00:00:00Z`) },
  });
  const chunks: Buffer[] = [];
  pdf.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
  const ctx: Ctx = { pdf, numberOf: new Map(doc.sources.map((s) => [s.url, s.n])), width: pdf.page.width - 2 * MARGIN };
  const outline = { root: pdf.outline, current: null as ReturnType<Outline["addItem"]> | null };

  // Title and header.
  pdf.outline.addItem(winAnsi(doc.title));
  pdf.font(FONTS.bold).fontSize(20).fillColor(INK).text(winAnsi(doc.title), { width: ctx.width });
  pdf.moveDown(0.5);
  pdf.font(FONTS.italic).fontSize(BODY).fillColor(MUTED).text(winAnsi(doc.question), { width: ctx.width });
  pdf.moveDown(0.4);
  const meta = [
    `Date: ${doc.date}`,
    ...doc.settings.map((s) => `${s.label}: ${s.value}`),
    `Support rate: ${doc.supportRate === null ? "not verified" : `${percent(doc.supportRate)} of claims fully supported by their cited sources`}`,
  ];
  pdf.font(FONTS.regular).fontSize(BODY - 1).text(winAnsi(meta.join("\n")), { width: ctx.width, lineGap: 1.5 });
  pdf.fillColor(INK).moveDown(0.8);

  for (const b of markdownBlocks(doc.body)) block(ctx, b, outline);

  if (doc.sources.length > 0) {
    heading(ctx, { kind: "heading", level: 2, inlines: [{ text: "Sources" }] }, outline);
    for (const s of doc.sources) {
      if (pdf.y > pdf.page.height - MARGIN - 40) pdf.addPage();
      pdf.addNamedDestination(`source-${s.n}`, "XYZ", MARGIN, pdf.page.height - pdf.y, null);
      pdf.font(FONTS.bold).fontSize(BODY - 0.5).fillColor(INK).text(`${s.n}. `, MARGIN, undefined, { continued: true });
      pdf.font(FONTS.regular).text(winAnsi(s.title));
      pdf.font(FONTS.regular).fontSize(BODY - 1.5).fillColor(LINK).text(winAnsi(s.url), MARGIN + 14, undefined, { width: ctx.width - 14, link: s.url });
      pdf.fillColor(INK).moveDown(0.35);
    }
  }

  // Page numbers, once every page exists. Writing inside the bottom margin would start a new
  // page, so the margin is lifted while the number is drawn.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf.font(FONTS.regular).fontSize(8.5).fillColor(MUTED).text(`Page ${i + 1} of ${range.count}`, MARGIN, pdf.page.height - MARGIN / 2, { width: ctx.width, align: "center", lineBreak: false });
    pdf.page.margins.bottom = bottom;
  }
  pdf.end();
  return done;
}
