// A report's Markdown as the few kinds of block every typeset export draws (PDF, DOCX, LaTeX):
// parsed with mdast (GitHub-flavoured: tables, strikethrough, autolinks), so that each writer
// renders structure, not Markdown syntax.
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import type { Nodes, PhrasingContent, RootContent } from "mdast";

export interface Inline {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  /** A link's target: a citation "[n](url)" arrives as text "n" with its URL. */
  href?: string;
}

export type Block =
  | { kind: "heading"; level: number; inlines: Inline[] }
  | { kind: "paragraph"; inlines: Inline[] }
  | { kind: "list"; ordered: boolean; items: { depth: number; n: number; inlines: Inline[] }[] }
  | { kind: "quote"; inlines: Inline[] }
  | { kind: "code"; text: string }
  | { kind: "table"; header: Inline[][]; rows: Inline[][][] }
  | { kind: "rule" };

function inlinesOf(nodes: PhrasingContent[] | Nodes[], style: Omit<Inline, "text"> = {}): Inline[] {
  const out: Inline[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out.push({ ...style, text: node.value.replace(/\s*\n\s*/g, " ") });
        break;
      case "inlineCode":
        out.push({ ...style, code: true, text: node.value });
        break;
      case "strong":
        out.push(...inlinesOf(node.children, { ...style, bold: true }));
        break;
      case "emphasis":
      case "delete":
        out.push(...inlinesOf(node.children, { ...style, italic: true }));
        break;
      case "link":
        out.push(...inlinesOf(node.children, { ...style, href: node.url }).map((i) => (i.text ? i : { ...i, text: node.url })));
        if (node.children.length === 0) out.push({ ...style, href: node.url, text: node.url });
        break;
      case "break":
        out.push({ ...style, text: " " });
        break;
      case "image":
        out.push({ ...style, text: node.alt ?? "" });
        break;
      case "html":
        break;
      default:
        if ("children" in node) out.push(...inlinesOf(node.children as PhrasingContent[], style));
        else if ("value" in node && typeof node.value === "string") out.push({ ...style, text: node.value });
    }
  }
  return out;
}

/** The plain text of inlines (headings as bookmarks, LaTeX section titles). */
export const plainOf = (inlines: Inline[]) => inlines.map((i) => i.text).join("").replace(/\s+/g, " ").trim();

function listItems(node: Extract<RootContent, { type: "list" }>, depth: number): { depth: number; n: number; inlines: Inline[] }[] {
  const out: { depth: number; n: number; inlines: Inline[] }[] = [];
  node.children.forEach((item, i) => {
    const inlines: Inline[] = [];
    const nested: { depth: number; n: number; inlines: Inline[] }[] = [];
    for (const child of item.children) {
      if (child.type === "list") nested.push(...listItems(child, depth + 1));
      else if ("children" in child) {
        if (inlines.length) inlines.push({ text: " " });
        inlines.push(...inlinesOf(child.children as PhrasingContent[]));
      }
    }
    out.push({ depth, n: (node.start ?? 1) + i, inlines }, ...nested);
  });
  return out;
}

function blocksOf(nodes: RootContent[]): Block[] {
  const out: Block[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case "heading":
        out.push({ kind: "heading", level: node.depth, inlines: inlinesOf(node.children) });
        break;
      case "paragraph":
        out.push({ kind: "paragraph", inlines: inlinesOf(node.children) });
        break;
      case "list":
        out.push({ kind: "list", ordered: node.ordered === true, items: listItems(node, 0) });
        break;
      case "blockquote":
        for (const b of blocksOf(node.children)) out.push(b.kind === "paragraph" ? { kind: "quote", inlines: b.inlines } : b);
        break;
      case "code":
        out.push({ kind: "code", text: node.value });
        break;
      case "table": {
        const [head, ...rows] = node.children.map((row) => row.children.map((cell) => inlinesOf(cell.children)));
        out.push({ kind: "table", header: head ?? [], rows });
        break;
      }
      case "thematicBreak":
        out.push({ kind: "rule" });
        break;
      default:
        break;
    }
  }
  return out;
}

export function markdownBlocks(markdown: string): Block[] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return blocksOf(tree.children);
}
