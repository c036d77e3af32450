// A report's Markdown as the few kinds of block every typeset export draws (PDF, DOCX, LaTeX):
// parsed with mdast (GitHub-flavoured: tables, strikethrough, autolinks), so that each writer
// renders structure, not Markdown syntax. Nothing a reader would see is dropped: raw HTML is kept as
// its text, footnotes as numbered notes, a list nested in another keeps its own kind; and only
// http(s) links stay links (a `javascript:` or `data:` target is no place to send a reader).
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import type { Nodes, PhrasingContent, RootContent } from "mdast";
import { chartFromSpec, type Chart } from "./chart-layout";

export interface Inline {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  /** A link's target, http(s) only: a citation "[n](url)" arrives as text "n" with its URL. */
  href?: string;
  /** A link to a place in the document ("[query q1](#query-ana-1-1-q1)"): the anchor's name. */
  goTo?: string;
  /** A place links may point at (an HTML anchor `<a id="…"></a>`), its text empty: its name. */
  anchor?: string;
}

/** An in-document link's or anchor's name: letters, digits, "-" and "_". */
const ANCHOR = /^[A-Za-z][\w-]{0,80}$/;

export interface ListItem {
  depth: number;
  /** Numbered (its number is `n`) or bulleted: each nesting level has its own kind. */
  ordered: boolean;
  n: number;
  inlines: Inline[];
}

export type Block =
  | { kind: "heading"; level: number; inlines: Inline[] }
  | { kind: "paragraph"; inlines: Inline[] }
  | { kind: "list"; ordered: boolean; items: ListItem[] }
  | { kind: "quote"; inlines: Inline[] }
  | { kind: "code"; text: string }
  | { kind: "table"; header: Inline[][]; rows: Inline[][][] }
  | { kind: "chart"; chart: Chart }
  | { kind: "rule" };

/** A chart of an analysis (a ```vega-lite block of the write-up): its marks over x and y (chart-layout.ts). */
export type { Chart };

/** The Vega-Lite spec the analysis agent writes (lib/deep-research/agents/analysis-chart.ts), or null for anything else. */
export function chartOf(json: string): Chart | null {
  try {
    return chartFromSpec(JSON.parse(json));
  } catch {
    return null;
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", mdash: "—", ndash: "–", hellip: "…", copy: "©", reg: "®", euro: "€" };

/** Raw HTML as the text a browser would show: tags (and scripts, styles, comments) out, entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(-->|$)/g, "")
    .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, "")
    .replace(/<\/?(p|div|br|li|tr|h[1-6]|summary|details|blockquote|pre|table|section|article)\b[^>]*>/gi, "\n")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    });
}

/**
 * A source named by a URL on a host under .invalid: a knowledge-base passage or an analysis query
 * (lib/knowledge/source-url.ts, lib/exports/query-links.ts), never on the web. A document names it by its title.
 */
export const isInternalSource = (url: string) => /^https?:\/\/[^/?#\s]+\.invalid(?:[/?#:]|$)/i.test(url.trim());

/** Whether a link target may be followed from a document: the web only. */
export const isWebLink = (url: string) => /^https?:\/\/[^\s]/i.test(url.trim()) && !isInternalSource(url);

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
      case "link": {
        const local = /^#(.+)$/.exec(node.url.trim())?.[1];
        if (local && ANCHOR.test(local)) {
          out.push(...inlinesOf(node.children, { ...style, goTo: local }));
          break;
        }
        if (!isWebLink(node.url)) {
          // Not a web link: its text stays, and an e-mail address or phone number is shown.
          const text = inlinesOf(node.children, style);
          const target = /^(mailto|tel):(.+)$/i.exec(node.url.trim())?.[2];
          out.push(...text);
          if (target && !plainOf(text).includes(target)) out.push({ ...style, text: text.length ? ` (${target})` : target });
          break;
        }
        out.push(...inlinesOf(node.children, { ...style, href: node.url }).map((i) => (i.text ? i : { ...i, text: node.url })));
        if (node.children.length === 0) out.push({ ...style, href: node.url, text: node.url });
        break;
      }
      case "break":
        out.push({ ...style, text: " " });
        break;
      case "image":
        out.push({ ...style, text: node.alt ?? "" });
        break;
      case "html": {
        const anchor = /^<a\s+(?:id|name)="([^"]+)"\s*>$/i.exec(node.value.trim())?.[1];
        if (anchor && ANCHOR.test(anchor)) out.push({ text: "", anchor });
        else out.push({ ...style, text: htmlText(node.value).replace(/\s+/g, " ") });
        break;
      }
      case "footnoteReference":
        out.push({ ...style, text: `[^${node.label ?? node.identifier}]` });
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

function listItems(node: Extract<RootContent, { type: "list" }>, depth: number): ListItem[] {
  const out: ListItem[] = [];
  node.children.forEach((item, i) => {
    const inlines: Inline[] = [];
    const nested: ListItem[] = [];
    const add = (more: Inline[]) => {
      if (inlines.length && more.length) inlines.push({ text: " " });
      inlines.push(...more);
    };
    for (const child of item.children) {
      if (child.type === "list") nested.push(...listItems(child, depth + 1));
      // A code block or HTML inside an item: its text, on the item's line.
      else if (child.type === "code") add([{ code: true, text: child.value.replace(/\s*\n\s*/g, " ") }]);
      else if (child.type === "html") add([{ text: htmlText(child.value).replace(/\s+/g, " ").trim() }].filter((i) => i.text));
      else if ("children" in child) add(inlinesOf(child.children as PhrasingContent[]));
    }
    out.push({ depth, ordered: node.ordered === true, n: (node.start ?? 1) + i, inlines }, ...nested);
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
      case "code": {
        const chart = node.lang === "vega-lite" ? chartOf(node.value) : null;
        out.push(chart ? { kind: "chart", chart } : { kind: "code", text: node.value });
        break;
      }
      case "table": {
        const [head, ...rows] = node.children.map((row) => row.children.map((cell) => inlinesOf(cell.children)));
        out.push({ kind: "table", header: head ?? [], rows });
        break;
      }
      case "thematicBreak":
        out.push({ kind: "rule" });
        break;
      case "html":
        // <details>, <div> …: each line of text a paragraph (Markdown inside them arrives as its own blocks).
        for (const text of htmlText(node.value).split(/\n\s*/)) if (text.trim()) out.push({ kind: "paragraph", inlines: [{ text: text.trim() }] });
        break;
      case "footnoteDefinition":
        for (const [k, b] of blocksOf(node.children).entries()) {
          out.push(k === 0 && b.kind === "paragraph" ? { kind: "paragraph", inlines: [{ text: `[^${node.label ?? node.identifier}] ` }, ...b.inlines] } : b);
        }
        break;
      default:
        // Definitions (link references) carry nothing to show; anything else with children keeps their text.
        if (node.type !== "definition" && "children" in node) out.push(...blocksOf(node.children as RootContent[]));
        break;
    }
  }
  return out;
}

export function markdownBlocks(markdown: string): Block[] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return blocksOf(tree.children);
}
