// A right-to-left paragraph for the PDF (Arabic, Hebrew, …), laid out here because PDFKit's
// line breaking only runs left to right: its words fill lines in reading order, then each line is
// drawn from the right, its runs in visual order (the Unicode bidirectional algorithm's gist: runs of
// the other direction — Latin words, numbers, citations "[1]" — keep their own order inside; spaces
// and punctuation between runs of two directions take the paragraph's). fontkit shapes each
// right-to-left piece and sets it right to left.
import type PDFDocument from "pdfkit";
import { RTL } from "./latin";

type Pdf = InstanceType<typeof PDFDocument>;

export interface RtlRun {
  text: string;
  font: string;
  color: string;
  link?: string;
  goTo?: string;
}

interface Piece extends RtlRun {
  /** Its place in reading order. */
  at: number;
  /** Followed by a space in the text. */
  space: boolean;
  dir: "rtl" | "ltr" | null;
  width: number;
}

const STRONG_LTR = /[\p{L}\p{N}]/u;

function pieces(pdf: Pdf, runs: RtlRun[], size: number, width: number): Piece[] {
  const out: Piece[] = [];
  for (const run of runs) {
    pdf.font(run.font).fontSize(size);
    for (const word of run.text.match(/\S+\s*|\s+/g) ?? []) {
      const text = word.trimEnd();
      if (!text) {
        const last = out.at(-1);
        if (last) last.space = true;
        continue;
      }
      const dir = RTL.test(text) ? "rtl" : STRONG_LTR.test(text) ? "ltr" : null;
      const whole = pdf.widthOfString(text, { features: [] });
      if (whole <= width) {
        out.push({ ...run, text, at: out.length, space: word !== text, dir, width: whole });
        continue;
      }
      // A word wider than the line is cut (rare: a long URL in an Arabic paragraph).
      let chunk = "";
      for (const ch of text) {
        if (chunk && pdf.widthOfString(chunk + ch, { features: [] }) > width) {
          out.push({ ...run, text: chunk, at: out.length, space: false, dir, width: pdf.widthOfString(chunk, { features: [] }) });
          chunk = "";
        }
        chunk += ch;
      }
      out.push({ ...run, text: chunk, at: out.length, space: word !== text, dir, width: pdf.widthOfString(chunk, { features: [] }) });
    }
  }
  return out;
}

/** A line's pieces from left to right: neutrals resolved, right-to-left groups reversed, the line reversed. */
function visualOrder(line: Piece[]): Piece[] {
  const dirs = line.map((p) => p.dir);
  for (let i = 0; i < line.length; i++) {
    if (dirs[i]) continue;
    const before = dirs.slice(0, i).reverse().find(Boolean) ?? "rtl";
    const after = dirs.slice(i + 1).find(Boolean) ?? "rtl";
    dirs[i] = before === after ? before : "rtl";
  }
  const groups: { dir: string; pieces: Piece[] }[] = [];
  line.forEach((p, i) => {
    const last = groups.at(-1);
    if (last && last.dir === dirs[i]) last.pieces.push(p);
    else groups.push({ dir: dirs[i] as string, pieces: [p] });
  });
  return groups.reverse().flatMap((g) => (g.dir === "rtl" ? [...g.pieces].reverse() : g.pieces));
}

/** Draws a right-to-left paragraph flush right in [x, x + width], from the current y. */
export function writeRtlParagraph(pdf: Pdf, runs: RtlRun[], options: { size: number; x: number; width: number; bottom: number; top: number }) {
  const { size, x, width } = options;
  const all = pieces(pdf, runs, size, width);
  const spaceWidth = (p: Piece) => pdf.font(p.font).fontSize(size).widthOfString(" ");
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let used = 0;
  for (const p of all) {
    const gap = line.length && line.at(-1)!.space ? spaceWidth(line.at(-1)!) : 0;
    if (line.length && used + gap + p.width > width) {
      lines.push(line);
      line = [];
      used = 0;
    }
    used += (line.length && line.at(-1)!.space ? spaceWidth(line.at(-1)!) : 0) + p.width;
    line.push(p);
  }
  if (line.length) lines.push(line);
  const none = null as unknown as undefined;
  for (const logical of lines) {
    const height = pdf.font(logical[0].font).fontSize(size).currentLineHeight(true) + 2.5;
    if (pdf.y + height > options.bottom) {
      pdf.addPage();
      pdf.y = options.top;
    }
    const visual = visualOrder(logical);
    // The gap between two neighbours is the space after whichever of them comes first in reading order.
    const gaps = visual.map((p, i) => (i === 0 ? 0 : (visual[i - 1].at < p.at ? visual[i - 1] : p).space ? spaceWidth(visual[i - 1].at < p.at ? visual[i - 1] : p) : 0));
    const total = visual.reduce((sum, p, i) => sum + p.width + gaps[i], 0);
    let cursor = x + width - total;
    const y = pdf.y;
    visual.forEach((p, i) => {
      cursor += gaps[i];
      pdf.font(p.font).fontSize(size).fillColor(p.color);
      pdf.text(p.text, cursor, y, { lineBreak: false, features: [], link: p.link ?? none, goTo: p.goTo ?? none, underline: false, baseline: -(0.718 * size) });
      cursor += p.width;
    });
    pdf.x = x;
    pdf.y = y + height;
  }
}
