// Report blocks (lib/exports/blocks.ts) as LaTeX: citations "[n](url)" become \cite{key}, other
// links \href, headings subsections (the paper's sections are its own), lists, tables and quotes.
import type { Block, Inline } from "../blocks";
import { plainOf } from "../blocks";
import { latex, latexUrl } from "./escape";

export interface CiteContext {
  /** Cited URL → BibTeX key. */
  keyOf: Map<string, string>;
}

function inlines(items: Inline[], ctx: CiteContext): string {
  let out = "";
  for (const i of items) {
    const key = i.href ? ctx.keyOf.get(i.href) : undefined;
    if (key && /^\d+$/.test(i.text.trim())) {
      // Adjacent citations merge: \cite{a}\cite{b} → \cite{a,b}.
      out = out.endsWith("}") && /\\cite\{[^}]*\}$/.test(out) ? `${out.slice(0, -1)},${key}}` : `${out.replace(/ $/, "~")}\\cite{${key}}`;
      continue;
    }
    let text = latex(i.text);
    if (i.code) text = `\\texttt{${text}}`;
    if (i.bold) text = `\\textbf{${text}}`;
    if (i.italic) text = `\\emph{${text}}`;
    if (i.href) text = key ? `${text}~\\cite{${key}}` : `\\href{${latexUrl(i.href)}}{${text}}`;
    out += text;
  }
  return out.trim();
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
    "\\hline",
    ...b.rows.map(row),
    "\\hline",
    "\\end{longtable}",
    "\\end{center}",
  ].join("\n");
}

function list(b: Extract<Block, { kind: "list" }>, ctx: CiteContext): string {
  const env = b.ordered ? "enumerate" : "itemize";
  const lines: string[] = [];
  let depth = -1;
  for (const item of b.items) {
    const d = Math.min(item.depth, 3);
    while (depth < d) (lines.push(`\\begin{${env}}`), depth++);
    while (depth > d) (lines.push(`\\end{${env}}`), depth--);
    lines.push(`\\item ${inlines(item.inlines, ctx)}`);
  }
  while (depth >= 0) (lines.push(`\\end{${env}}`), depth--);
  return lines.join("\n");
}

/** LaTeX of report blocks; headings one level under the paper's section (level 2 → subsection). */
export function blocksToLatex(blocks: Block[], ctx: CiteContext): string {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case "heading":
        out.push(`\\${b.level <= 2 ? "subsection" : "subsubsection"}{${latex(plainOf(b.inlines))}}`);
        break;
      case "paragraph":
        out.push(inlines(b.inlines, ctx));
        break;
      case "quote":
        out.push(`\\begin{quote}\n${inlines(b.inlines, ctx)}\n\\end{quote}`);
        break;
      case "list":
        out.push(list(b, ctx));
        break;
      case "code":
        out.push(`\\begin{verbatim}\n${b.text.replace(/\\end\{verbatim\}/g, "\\end {verbatim}")}\n\\end{verbatim}`);
        break;
      case "table":
        out.push(table(b, ctx));
        break;
      case "rule":
        break;
    }
  }
  return out.filter(Boolean).join("\n\n");
}
