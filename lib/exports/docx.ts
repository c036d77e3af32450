// The DOCX export (the `docx` package, pure JavaScript): Word headings (so the navigation pane
// and a table of contents work), citations that jump to the numbered source list (in tables too),
// lists nested as the report has them, page numbers. Only web links are link targets. Word shows
// every script with the reader's own fonts, so the text goes in as it is.
import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  Document,
  ExternalHyperlink,
  Footer,
  HeadingLevel,
  ImageRun,
  InternalHyperlink,
  Packer,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from "docx";
import { isInternalSource, isWebLink, markdownBlocks, plainOf, type Block, type Inline } from "./blocks";
import { percent, type ExportDocument } from "./document";
import { clean } from "./latin";
import { chartLayout } from "./chart-layout";
import { chartPng } from "./chart-png";
import { chartSvg } from "./chart-svg";

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5];

// XML 1.0 forbids most control characters and lone surrogates; a page's text can carry them.
const xmlSafe = clean;

/** A Word bookmark's name: letters, digits and "_" only. */
const bookmarkName = (anchor: string) => `a_${anchor.replace(/[^A-Za-z0-9_]/g, "_")}`.slice(0, 40);

function runsOf(inlines: Inline[], numberOf: Map<string, number>): ParagraphChild[] {
  return inlines.flatMap((i): ParagraphChild[] => {
    if (i.anchor) return [new Bookmark({ id: bookmarkName(i.anchor), children: [new TextRun("")] })];
    if (i.goTo) return [new InternalHyperlink({ anchor: bookmarkName(i.goTo), children: [new TextRun({ text: xmlSafe(i.text), bold: i.bold, italics: i.italic, style: "Hyperlink" })] })];
    const n = i.href ? numberOf.get(i.href) : undefined;
    if (n !== undefined && /^\d+$/.test(i.text.trim())) {
      return [new InternalHyperlink({ anchor: `source_${n}`, children: [new TextRun({ text: `[${n}]`, style: "Hyperlink" })] })];
    }
    const web = i.href && isWebLink(i.href) ? i.href : undefined;
    const run = new TextRun({ text: xmlSafe(i.text), bold: i.bold, italics: i.italic, font: i.code ? "Courier New" : undefined, style: web ? "Hyperlink" : undefined });
    return [web ? new ExternalHyperlink({ link: web, children: [run] }) : run];
  });
}

interface Ctx {
  numberOf: Map<string, number>;
  /** Charts so far (each one's caption is "Figure n."). */
  figures: number;
}

function blockOf(b: Block, ctx: Ctx): (Paragraph | Table)[] {
  const { numberOf } = ctx;
  switch (b.kind) {
    case "heading":
      return [new Paragraph({ heading: HEADINGS[Math.min(b.level - 1, 5)], children: [new TextRun(xmlSafe(plainOf(b.inlines)))] })];
    case "paragraph":
      return [new Paragraph({ children: runsOf(b.inlines, numberOf), spacing: { after: 120 } })];
    case "quote":
      return [new Paragraph({ children: runsOf(b.inlines, numberOf), indent: { left: 480 }, spacing: { after: 120 } })];
    case "list":
      return b.items.map((item) =>
        item.ordered
          ? new Paragraph({ children: [new TextRun(`${item.n}. `), ...runsOf(item.inlines, numberOf)], indent: { left: 360 + item.depth * 360, hanging: 360 }, spacing: { after: 60 } })
          : new Paragraph({ children: runsOf(item.inlines, numberOf), bullet: { level: Math.min(item.depth, 8) }, spacing: { after: 60 } }),
      );
    case "code":
      return b.text.split("\n").map((line) => new Paragraph({ children: [new TextRun({ text: xmlSafe(line), font: "Courier New", size: 18 })] }));
    case "table": {
      const columns = Math.max(b.header.length, ...b.rows.map((r) => r.length), 1);
      const row = (cells: Inline[][], header: boolean) =>
        new TableRow({
          tableHeader: header,
          children: Array.from({ length: columns }, (_, c) => new TableCell({ children: [new Paragraph({ children: runsOf((cells[c] ?? []).map((i) => ({ ...i, bold: i.bold || header })), numberOf) })] })),
        });
      return [new Table({ width: { size: 100, type: WidthType.PERCENTAGE }, rows: [row(b.header, true), ...b.rows.map((r) => row(r, false))] }), new Paragraph({})];
    }
    case "chart": {
      // The chart as a drawing: its SVG (Word 2016 and later, LibreOffice) with a PNG for older readers, and its caption.
      const { chart } = b;
      const width = 600;
      const height = 300;
      const summary = chartLayout(chart, { width, height }).summary;
      return [
        new Paragraph({
          keepNext: true,
          spacing: { before: 120 },
          children: [
            new ImageRun({
              type: "svg",
              data: Buffer.from(chartSvg(chart, { width, height }), "utf8"),
              fallback: { type: "png", data: chartPng(chart, { width, height }) },
              transformation: { width, height },
              altText: { name: `Figure ${ctx.figures + 1}`, title: xmlSafe(chart.title), description: xmlSafe(summary) },
            }),
          ],
        }),
        new Paragraph({ children: [new TextRun({ text: xmlSafe(`Figure ${++ctx.figures}. ${chart.title}`), italics: true })], spacing: { after: 160 } }),
      ];
    }
    case "rule":
      return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "D0D7DE", space: 1 } } })];
  }
}

export async function docxExport(doc: ExportDocument): Promise<Buffer> {
  const numberOf = new Map(doc.sources.map((s) => [s.url, s.n]));
  const ctx: Ctx = { numberOf, figures: 0 };
  const meta = [
    `Date: ${doc.date}`,
    ...doc.settings.map((s) => `${s.label}: ${s.value}`),
    `Support rate: ${doc.supportRate === null ? "not verified" : `${percent(doc.supportRate)} of claims fully supported by their cited sources`}`,
  ];
  const children: (Paragraph | Table)[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(xmlSafe(doc.title))] }),
    new Paragraph({ children: [new TextRun({ text: xmlSafe(doc.question), italics: true })], spacing: { after: 120 } }),
    ...meta.map((line) => new Paragraph({ children: [new TextRun({ text: xmlSafe(line), color: "59636E", size: 18 })] })),
    new Paragraph({}),
    ...markdownBlocks(doc.body).flatMap((b) => blockOf(b, ctx)),
  ];
  if (doc.sources.length > 0) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun("Sources")] }));
    for (const s of doc.sources) {
      children.push(
        new Paragraph({
          spacing: { after: 80 },
          children: [
            new Bookmark({ id: `source_${s.n}`, children: [new TextRun({ text: `${s.n}. `, bold: true })] }),
            new TextRun(xmlSafe(s.title)),
            // A knowledge passage or an analysis query is named by its title: its URL is no address.
            ...(isInternalSource(s.url)
              ? []
              : [new TextRun({ text: " — " }), isWebLink(s.url) ? new ExternalHyperlink({ link: s.url, children: [new TextRun({ text: xmlSafe(s.url), style: "Hyperlink" })] }) : new TextRun(xmlSafe(s.url))]),
          ],
        }),
      );
    }
  }
  const document = new Document({
    creator: "Quarry",
    title: xmlSafe(doc.title),
    description: xmlSafe(doc.question.slice(0, 300)),
    sections: [
      {
        footers: {
          default: new Footer({
            children: [new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ children: ["Page ", PageNumber.CURRENT, " of ", PageNumber.TOTAL_PAGES], size: 16 })] })],
          }),
        },
        children,
      },
    ],
  });
  return Packer.toBuffer(document);
}
