// The PDF export, typeset on the server with PDFKit (pure JavaScript: no browser, no native
// code, so it runs on any server the app runs on): title and header, the report with its
// headings as bookmarks, citations that jump to the numbered source list (in tables too), and page
// numbers. Latin text is set in the standard fonts; every other script in the fonts the server has
// (fonts.ts, pdf-text.ts: embedded, subset, right-to-left runs shaped by fontkit), and what no font
// has is "?", with a note under the header saying so.
import PDFDocument from "pdfkit";
import { isInternalSource, isWebLink, markdownBlocks, plainOf, type Block, type Inline } from "./blocks";
import { percent, type ExportDocument } from "./document";
import { fontBytes, fontStack, type FontFace } from "./fonts";
import { clean, readsRtl, winAnsi } from "./latin";
import { drawChart } from "./pdf-chart";
import { writeRtlParagraph } from "./pdf-rtl";
import { replacedNote, segments, unshowable } from "./pdf-text";

export { winAnsi };

type Pdf = InstanceType<typeof PDFDocument>;
type Outline = Pdf["outline"];

const MARGIN = 64;
const BODY = 10.5;
const INK = "#1f2328";
const MUTED = "#59636e";
const LINK = "#0b57d0";
const FONTS = { regular: "Helvetica", bold: "Helvetica-Bold", italic: "Helvetica-Oblique", boldItalic: "Helvetica-BoldOblique", code: "Courier" };

function fontOf(i: Omit<Inline, "text">): string {
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
  stack: FontFace[];
  /** Fonts of the stack registered with this document, by name. */
  registered: Set<string>;
  /** Charts drawn so far (each one's caption is "Figure n."). */
  figures: number;
}

interface Run {
  text: string;
  font: string;
  color: string;
  link?: string;
  goTo?: string;
}

/** The name of a stack font in this document, registered on first use (its bold where there is one). */
function faceFont(ctx: Ctx, face: FontFace, bold: boolean): string {
  const useBold = bold && face.bold;
  const name = useBold ? `${face.name}B` : face.name;
  if (!ctx.registered.has(name)) {
    const file = useBold ? face.bold!.file : face.file;
    const postscript = useBold ? face.bold!.face : face.face;
    // A collection (.ttc) is opened at the face of that PostScript name.
    ctx.pdf.registerFont(name, fontBytes(file), postscript as string);
    ctx.registered.add(name);
  }
  return name;
}

/** Text in one style as runs of the fonts that show it. */
function runsOf(ctx: Ctx, text: string, style: Omit<Inline, "text">, color: string, target: Pick<Run, "link" | "goTo"> = {}): Run[] {
  return segments(text, ctx.stack, new Set()).map((s) => ({ text: s.text, font: s.face ? faceFont(ctx, s.face, style.bold === true) : fontOf(style), color, ...target }));
}

/** Runs as one flowing paragraph; a right-to-left one is laid out by pdf-rtl.ts, flush right. */
function writeRuns(ctx: Ctx, runs: Run[], options: { size?: number; indent?: number; x?: number; width?: number; rtl?: boolean } = {}) {
  const { pdf } = ctx;
  const size = options.size ?? BODY;
  const kept = runs.filter((r) => r.text);
  if (kept.length === 0) return;
  const x = options.x ?? MARGIN + (options.indent ?? 0);
  const width = options.width ?? ctx.width - (options.indent ?? 0);
  if (options.rtl) return writeRtlParagraph(pdf, kept, { size, x, width, top: MARGIN, bottom: pdf.page.height - MARGIN });
  kept.forEach((r, k) => {
    pdf.font(r.font).fontSize(size).fillColor(r.color);
    const last = k === kept.length - 1;
    // PDFKit carries a continued text's options over to the next piece unless they are given, and
    // `undefined` counts as not given: null ends the previous piece's link. `features` lays each piece
    // out whole (fontkit shapes a right-to-left run and sets it right to left).
    const none = null as unknown as undefined;
    // Every piece on Helvetica's baseline, whatever its font's ascender: mixed scripts share one line.
    const common = { continued: !last, lineGap: 2.5, link: r.link ?? none, goTo: r.goTo ?? none, underline: false, features: [], baseline: -(0.718 * size) };
    if (k === 0) pdf.text(r.text, x, undefined, { ...common, width });
    else pdf.text(r.text, common);
  });
  pdf.fillColor(INK);
}

/** Inlines as runs: citations "[n]" link to source n, web links are links, nothing else is a target. */
function inlineRuns(ctx: Ctx, inlines: Inline[], color = INK): Run[] {
  return inlines.flatMap((i) => {
    const n = i.href ? ctx.numberOf.get(i.href) : undefined;
    if (n !== undefined && /^\d+$/.test(i.text.trim())) return runsOf(ctx, `[${n}]`, i, LINK, { goTo: `source-${n}` });
    // A link to a place in the document (an analysis query's table or figure) jumps to its anchor.
    if (i.goTo) return runsOf(ctx, i.text, i, LINK, { goTo: `anchor-${i.goTo}` });
    const web = i.href && isWebLink(i.href) ? i.href : undefined;
    return runsOf(ctx, i.text, i, web ? LINK : color, web ? { link: web } : {});
  });
}

/** The anchors among inlines become named destinations here, where their paragraph starts. */
function placeAnchors(ctx: Ctx, inlines: Inline[]) {
  for (const i of inlines) if (i.anchor) ctx.pdf.addNamedDestination(`anchor-${i.anchor}`, "XYZ", MARGIN, ctx.pdf.page.height - ctx.pdf.y, null);
}

function writeInlines(ctx: Ctx, inlines: Inline[], options: { size?: number; indent?: number; color?: string; prefix?: string } = {}) {
  if (inlines.some((i) => i.anchor)) {
    // Not at the foot of a page, whose paragraph would start on the next.
    if (ctx.pdf.y > ctx.pdf.page.height - MARGIN - 40) ctx.pdf.addPage();
    placeAnchors(ctx, inlines);
  }
  const runs = [...(options.prefix ? runsOf(ctx, options.prefix, {}, options.color ?? INK) : []), ...inlineRuns(ctx, inlines, options.color ?? INK)];
  writeRuns(ctx, runs, { ...options, rtl: !options.prefix && readsRtl(plainOf(inlines)) });
}

function heading(ctx: Ctx, block: Extract<Block, { kind: "heading" }>, outline: { root: Outline; current: ReturnType<Outline["addItem"]> | null }) {
  const { pdf } = ctx;
  const size = block.level <= 2 ? 15 : block.level === 3 ? 12.5 : 11;
  if (pdf.y > pdf.page.height - MARGIN - 80) pdf.addPage();
  pdf.moveDown(0.8);
  const title = clean(plainOf(block.inlines));
  // Bookmarks (Unicode strings in the PDF): a level-2 heading at the top, deeper ones under the last of it.
  if (block.level <= 2 || !outline.current) outline.current = outline.root.addItem(title);
  else outline.current.addItem(title);
  writeRuns(ctx, runsOf(ctx, title, { bold: true }, INK), { size, rtl: readsRtl(title) });
  pdf.moveDown(0.35);
}

/** A table: each cell's inlines (citations linked), each row as tall as its tallest cell. */
function table(ctx: Ctx, block: Extract<Block, { kind: "table" }>) {
  const { pdf } = ctx;
  const columns = Math.max(block.header.length, ...block.rows.map((r) => r.length), 1);
  const colWidth = ctx.width / columns;
  const size = BODY - 1;
  [block.header, ...block.rows].forEach((row, r) => {
    const cells = Array.from({ length: columns }, (_, c) => (row[c] ?? []).map((i) => ({ ...i, bold: i.bold || r === 0 })));
    pdf.font(r === 0 ? FONTS.bold : FONTS.regular).fontSize(size);
    const estimate = Math.max(...cells.map((cell) => pdf.heightOfString(winAnsi(plainOf(cell)) || " ", { width: colWidth - 8 }))) + 6;
    if (pdf.y + estimate > pdf.page.height - MARGIN) pdf.addPage();
    const top = pdf.y;
    let bottom = top + estimate;
    cells.forEach((cell, c) => {
      pdf.y = top + 3;
      writeRuns(ctx, inlineRuns(ctx, cell), { size, x: MARGIN + c * colWidth + 4, width: colWidth - 8, rtl: readsRtl(plainOf(cell)) });
      bottom = Math.max(bottom, pdf.y + 3);
    });
    pdf.moveTo(MARGIN, bottom).lineTo(MARGIN + ctx.width, bottom).lineWidth(0.5).strokeColor("#d0d7de").stroke();
    pdf.x = MARGIN;
    pdf.y = bottom;
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
        writeInlines(ctx, item.inlines, { indent: 14 + item.depth * 14, prefix: item.ordered ? `${item.n}. ` : "•  " });
        pdf.moveDown(0.25);
      }
      return pdf.moveDown(0.4);
    case "code":
      writeRuns(ctx, runsOf(ctx, b.text, { code: true }, INK), { size: BODY - 1.5, indent: 10 });
      return pdf.moveDown(0.6);
    case "table":
      return table(ctx, b);
    case "chart":
      drawChart(pdf, b.chart, {
        x: MARGIN,
        width: ctx.width,
        bottom: pdf.page.height - MARGIN,
        color: LINK,
        muted: MUTED,
        caption: (title) => writeRuns(ctx, runsOf(ctx, `Figure ${++ctx.figures}. ${title}`, { italic: true }, MUTED), { size: BODY - 1 }),
      });
      return pdf.moveDown(0.6);
    case "rule":
      pdf.moveTo(MARGIN, pdf.y).lineTo(MARGIN + ctx.width, pdf.y).lineWidth(0.5).strokeColor("#d0d7de").stroke();
      return pdf.moveDown(0.6);
  }
}

/** All the text the document shows, to find what no font has before the header is drawn. */
function shownText(doc: ExportDocument, blocks: Block[], meta: string[]): string {
  const ofBlock = (b: Block): string[] =>
    b.kind === "list" ? b.items.map((i) => plainOf(i.inlines)) : b.kind === "table" ? [...b.header, ...b.rows.flat()].map(plainOf) : b.kind === "code" ? [b.text] : b.kind === "chart" ? [b.chart.title] : b.kind === "rule" ? [] : [plainOf(b.inlines)];
  return [doc.title, doc.question, ...meta, ...blocks.flatMap(ofBlock), ...doc.sources.flatMap((s) => [s.title, s.url])].join("\n");
}

export function pdfExport(doc: ExportDocument, stack: FontFace[] = fontStack()): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    displayTitle: true,
    info: { Title: clean(doc.title), Author: "Quarry", Subject: clean(doc.question.slice(0, 300)), CreationDate: new Date(`${doc.date}T00:00:00Z`) },
  });
  const chunks: Buffer[] = [];
  pdf.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
  const ctx: Ctx = { pdf, numberOf: new Map(doc.sources.map((s) => [s.url, s.n])), width: pdf.page.width - 2 * MARGIN, stack, registered: new Set(), figures: 0 };
  const outline = { root: pdf.outline, current: null as ReturnType<Outline["addItem"]> | null };
  const blocks = markdownBlocks(doc.body);
  const meta = [
    `Date: ${doc.date}`,
    ...doc.settings.map((s) => `${s.label}: ${s.value}`),
    `Support rate: ${doc.supportRate === null ? "not verified" : `${percent(doc.supportRate)} of claims fully supported by their cited sources`}`,
  ];
  const note = replacedNote(unshowable(shownText(doc, blocks, meta), stack), stack.length > 0, "The Markdown and DOCX exports keep them.");

  // Title and header.
  pdf.outline.addItem(clean(doc.title));
  writeRuns(ctx, runsOf(ctx, doc.title, { bold: true }, INK), { size: 20, rtl: readsRtl(doc.title) });
  pdf.moveDown(0.5);
  writeRuns(ctx, runsOf(ctx, doc.question, { italic: true }, MUTED), { rtl: readsRtl(doc.question) });
  pdf.moveDown(0.4);
  for (const line of meta) writeRuns(ctx, runsOf(ctx, line, {}, MUTED), { size: BODY - 1 });
  if (note) {
    pdf.moveDown(0.3);
    writeRuns(ctx, runsOf(ctx, note, { italic: true }, MUTED), { size: BODY - 1 });
  }
  pdf.fillColor(INK).moveDown(0.8);

  for (const b of blocks) block(ctx, b, outline);

  if (doc.sources.length > 0) {
    heading(ctx, { kind: "heading", level: 2, inlines: [{ text: "Sources" }] }, outline);
    for (const s of doc.sources) {
      if (pdf.y > pdf.page.height - MARGIN - 40) pdf.addPage();
      pdf.addNamedDestination(`source-${s.n}`, "XYZ", MARGIN, pdf.page.height - pdf.y, null);
      writeRuns(ctx, [...runsOf(ctx, `${s.n}. `, { bold: true }, INK), ...runsOf(ctx, s.title, {}, INK)], { size: BODY - 0.5 });
      const web = isWebLink(s.url);
      // A knowledge passage or an analysis query is named by its title: its URL is no address.
      if (!isInternalSource(s.url)) writeRuns(ctx, runsOf(ctx, s.url, {}, web ? LINK : MUTED, web ? { link: s.url } : {}), { size: BODY - 1.5, indent: 14 });
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
