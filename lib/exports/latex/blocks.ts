// Report blocks (lib/exports/blocks.ts) as LaTeX: citations "[n](url)" become \cite{key}, other
// links \href, headings subsections (the paper's sections are its own), lists (each level its own
// kind), tables and quotes. Text goes through escape.ts for the engine the paper is built for.
import type { Block, Inline, ListItem } from "../blocks";
import { plainOf } from "../blocks";
import { latex, latexUrl, readsRtl, verbatim, type Typeset } from "./escape";

export interface CiteContext {
  /** Cited URL → BibTeX key. */
  keyOf: Map<string, string>;
  typeset: Typeset;
}

function inlines(items: Inline[], ctx: CiteContext, t: Typeset = ctx.typeset): string {
  let out = "";
  for (const i of items) {
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
      case "chart": {
        // The chart's values as a table under its title (the PDF export draws it).
        const { chart } = b;
        const rows = chart.points.map((p) => [[{ text: p.x }], [{ text: p.y.toLocaleString("en", { maximumFractionDigits: 6 }) }]]);
        out.push(`\\emph{${latex(`Chart (${chart.mark}): ${chart.title}`, ctx.typeset)}}`, table({ kind: "table", header: [[{ text: chart.x }], [{ text: chart.y }]], rows }, ctx));
        break;
      }
      case "rule":
        break;
    }
  }
  return out.filter(Boolean).join("\n\n");
}
