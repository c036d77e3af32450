// Report blocks (lib/exports/blocks.ts) as LaTeX: citations "[n](url)" become \cite{key}, other
// links \href, headings subsections (the paper's sections are its own), lists (each level its own
// kind), tables and quotes. Text goes through escape.ts for the engine the paper is built for.
import type { Block, Inline, ListItem } from "../blocks";
import { plainOf } from "../blocks";
import { latex, latexUrl, readsRtl, verbatim, type Typeset } from "./escape";
import { chartLayout, type Chart } from "../chart-layout";

export interface CiteContext {
  /** Cited URL → BibTeX key. */
  keyOf: Map<string, string>;
  typeset: Typeset;
}

function inlines(items: Inline[], ctx: CiteContext, t: Typeset = ctx.typeset): string {
  let out = "";
  for (const i of items) {
    // An anchor (an analysis query's place) and links to it: hyperref's targets.
    if (i.anchor) {
      out += `\\hypertarget{${i.anchor}}{}`;
      continue;
    }
    if (i.goTo) {
      const text = latex(i.text, t);
      if (text) out += `\\hyperlink{${i.goTo}}{${i.bold ? `\\textbf{${text}}` : text}}`;
      continue;
    }
    const key = i.href ? ctx.keyOf.get(i.href) : undefined;
    if (key && /^\d+$/.test(i.text.trim())) {
      // Adjacent citations merge: \cite{a}\cite{b} → \cite{a,b}.
      out = out.endsWith("}") && /\\cite\{[^}]*\}$/.test(out) ? `${out.slice(0, -1)},${key}}` : `${out.replace(/ $/, "~")}\\cite{${key}}`;
      continue;
    }
    let text = latex(i.text, t);
    if (!text) continue;
    if (i.code) text = `\\texttt{${text}}`;
    if (i.bold) text = `\\textbf{${text}}`;
    if (i.italic) text = `\\emph{${text}}`;
    const url = i.href && !key ? latexUrl(i.href) : null;
    if (i.href) text = key ? `${text}~\\cite{${key}}` : url ? `\\href{${url}}{${text}}` : text;
    out += text;
  }
  return out.trim();
}

/** A paragraph that reads right to left is set so (LuaLaTeX); its left-to-right runs are wrapped. */
function paragraph(items: Inline[], ctx: CiteContext): string {
  if (!ctx.typeset.unicode || !readsRtl(plainOf(items))) return inlines(items, ctx);
  // Citations keep their left-to-right "[1, 2]".
  const text = inlines(items, ctx, { ...ctx.typeset, rtl: true }).replace(/~?\\cite\{[^}]*\}/g, (cite) => `{\\textdir TLT ${cite}}`);
  return `{\\pardir TRT\\textdir TRT ${text}\\par}`;
}

function table(b: Extract<Block, { kind: "table" }>, ctx: CiteContext): string {
  const columns = Math.max(b.header.length, ...b.rows.map((r) => r.length), 1);
  const row = (cells: Inline[][]) => Array.from({ length: columns }, (_, c) => inlines(cells[c] ?? [], ctx)).join(" & ") + " \\\\";
  const width = (0.95 / columns).toFixed(3);
  return [
    "\\begin{center}\\small",
    `\\begin{longtable}{${Array.from({ length: columns }, () => `p{${width}\\linewidth}`).join("")}}`,
    "\\hline",
    row(b.header.map((cell) => cell.map((i) => ({ ...i, bold: true })))),
    "\\hline\\endhead",
    ...b.rows.map(row),
    "\\hline",
    "\\end{longtable}",
    "\\end{center}",
  ].join("\n");
}

/** Items with their depths as nested environments, each level numbered or bulleted as the report has it. */
function list(items: ListItem[], ctx: CiteContext): string {
  const lines: string[] = [];
  const open: string[] = [];
  for (const item of items) {
    // LaTeX nests lists four deep; deeper items stay at the fourth level.
    const depth = Math.min(item.depth, 3);
    const env = item.ordered ? "enumerate" : "itemize";
    while (open.length > depth + 1) lines.push(`\\end{${open.pop()}}`);
    if (open.length === depth + 1 && open[depth] !== env) lines.push(`\\end{${open.pop()}}`);
    while (open.length < depth + 1) {
      const kind = open.length === depth ? env : "itemize";
      lines.push(`\\begin{${kind}}`);
      open.push(kind);
    }
    // An item's own number, as the report has it (a list may start at 3).
    const number = item.ordered ? `\\setcounter{enum${"i".repeat(open.filter((e) => e === "enumerate").length)}}{${item.n - 1}}` : "";
    lines.push(`${number}\\item ${inlines(item.inlines, ctx) || "{}"}`);
  }
  while (open.length) lines.push(`\\end{${open.pop()}}`);
  return lines.join("\n");
}

/** LaTeX of report blocks; headings one level under the paper's section (level 2 → subsection). */
export function blocksToLatex(blocks: Block[], ctx: CiteContext): string {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case "heading":
        out.push(`\\${b.level <= 2 ? "subsection" : "subsubsection"}{${latex(plainOf(b.inlines), ctx.typeset)}}`);
        break;
      case "paragraph":
        out.push(paragraph(b.inlines, ctx));
        break;
      case "quote":
        out.push(`\\begin{quote}\n${paragraph(b.inlines, ctx)}\n\\end{quote}`);
        break;
      case "list":
        out.push(list(b.items, ctx));
        break;
      case "code":
        out.push(`\\begin{verbatim}\n${verbatim(b.text, ctx.typeset)}\n\\end{verbatim}`);
        break;
      case "table":
        out.push(table(b, ctx));
        break;
      case "chart":
        out.push(chartFigure(b.chart, ctx.typeset));
        break;
      case "rule":
        break;
    }
  }
  return out.filter(Boolean).join("\n\n");
}

const pt = (v: number) => (Math.round(v * 10) / 10).toString();

/**
 * A chart as a figure drawn with LaTeX's own picture environment (no package beyond graphicx for the
 * turned axis title and color for the marks, both in every TeX installation): grid lines at the nice
 * ticks, the zero baseline, bars as rules, a line as straight Bézier segments, points as discs.
 */
export function chartFigure(chart: Chart, t: Typeset): string {
  const W = 400;
  const H = 210;
  const l = chartLayout(chart, { width: W, height: H, fontSize: 7 });
  const Y = (y: number) => H - y; // the picture's y runs upwards
  const { plot } = l;
  const text = (s: string) => latex(s, t);
  const lines = [
    "\\begin{figure}[htbp]",
    "\\centering",
    "\\setlength{\\unitlength}{1pt}",
    `\\begin{picture}(${W},${H})`,
    "\\linethickness{0.2pt}",
    "\\color[gray]{0.45}",
    ...l.yTicks.flatMap((tick) => [
      `\\put(${pt(plot.x - 3)},${pt(Y(tick.y))}){\\line(1,0){${pt(plot.w + 3)}}}`,
      `\\put(${pt(plot.x - 5)},${pt(Y(tick.y))}){\\makebox(0,0)[r]{\\tiny ${text(tick.label)}}}`,
    ]),
    "\\color{black}",
    `\\put(${pt(plot.x)},${pt(Y(plot.y + plot.h))}){\\line(0,1){${pt(plot.h)}}}`,
    "\\color[rgb]{0.04,0.34,0.82}",
    ...l.bars.map((b) => `\\put(${pt(b.x)},${pt(Y(b.y + b.h))}){\\rule{${pt(b.w)}pt}{${pt(Math.max(b.h, 0.4))}pt}}`),
    ...(l.mark === "line" ? l.points.slice(1).map((p, i) => {
      const a = l.points[i];
      return `\\qbezier(${pt(a.x)},${pt(Y(a.y))})(${pt((a.x + p.x) / 2)},${pt(Y((a.y + p.y) / 2))})(${pt(p.x)},${pt(Y(p.y))})`;
    }) : []),
    ...l.points.map((p) => `\\put(${pt(p.x)},${pt(Y(p.y))}){\\circle*{3}}`),
    "\\color{black}",
    "\\linethickness{0.6pt}",
    `\\put(${pt(plot.x)},${pt(Y(l.zeroY))}){\\line(1,0){${pt(plot.w)}}}`,
    ...l.xLabels.map((x) => `\\put(${pt(x.x)},${pt(Y(plot.y + plot.h + 8))}){\\makebox(0,0){\\tiny ${text(x.text)}}}`),
    `\\put(${pt(l.xTitle.x)},${pt(Y(l.xTitle.y) + 2)}){\\makebox(0,0){\\scriptsize\\bfseries ${text(l.xTitle.text)}}}`,
    `\\put(${pt(l.yTitle.x)},${pt(Y(l.yTitle.y))}){\\makebox(0,0){\\rotatebox{90}{\\scriptsize\\bfseries ${text(l.yTitle.text)}}}}`,
    "\\end{picture}",
    `\\caption{${text(chart.title)}}`,
    "\\end{figure}",
  ];
  return lines.join("\n");
}
