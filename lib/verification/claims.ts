// The sentences of a report that a verification judges: every sentence of its prose and list items
// (headings, code, tables and the generated source list are not claims), with the URLs it cites and
// its place in the Markdown, so that a repair can rewrite or remove exactly that sentence.
import { splitNumberedSources } from "../report-citations";

export interface Claim {
  /** 0-based, in reading order. */
  position: number;
  /** The sentence as it stands in the Markdown, citations included. */
  markdown: string;
  /** The sentence without its citations and link markup: what is checked. */
  text: string;
  /** Cited URLs, in order, without repeats (empty: an uncited sentence). */
  urls: string[];
  /** Offsets of `markdown` in the report's body (the report without its source list). */
  start: number;
  end: number;
}

const LINK = /\[([^\]\n]*)\]\((https?:\/\/[^)\s]+)(?:\s+"[^"]*")?\)/g;
const CITATION_ONLY = /^\s*(\(\s*)?\[(\d+|source|\[\d+\])\]\(https?:\/\/[^)\s]+\)(\s*\))?/;
// A sentence ends at . ! or ? (and any citations right after it) before whitespace and a capital,
// digit or opening quote: "Output rose 4% [2](…). Prices fell."
const SENTENCE_END = /(?<=[.!?]["”’)]?(?:\s*\[\d+\]\(https?:\/\/[^)\s]+\))*)\s+(?=[A-Z0-9“"(])/g;

/** Plain text of a sentence: numeric citations dropped, descriptive links kept as their words. */
export function plainText(markdown: string): string {
  return markdown
    .replace(LINK, (_whole, text: string) => (/^(\d+|source|\[\d+\])$/i.test(text.trim()) ? "" : text))
    .replace(/[*_`]+/g, "")
    .replace(/\s+([.,;:!?])/g, "$1")
    .replace(/\(\s*\)/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function citedUrls(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(LINK)].map((m) => m[2]))];
}

/** The report's text before its generated source list. */
export function reportBody(markdown: string): { body: string; sourceTitles: Map<string, string> } {
  const { body, sources } = splitNumberedSources(markdown);
  return { body, sourceTitles: new Map(sources.map((s) => [s.url, s.title])) };
}

/** Every sentence of the body's prose and list items, in order. */
export function claimsOf(body: string): Claim[] {
  const claims: Claim[] = [];
  let offset = 0;
  let fenced = false;
  for (const line of body.split("\n")) {
    const lineStart = offset;
    offset += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || /^\s*(#{1,6}\s|\||>?\s*$|```|~~~|---+\s*$|\*\*\*+\s*$)/.test(line)) continue;
    // The text of a paragraph line or a list item, after its marker.
    const lead = /^\s*(?:>\s*)?(?:[-*+]\s+|\d+[.)]\s+)?/.exec(line)?.[0].length ?? 0;
    let cursor = lead;
    const text = line.slice(lead);
    const pieces = text.split(SENTENCE_END);
    let searchFrom = 0;
    for (const piece of pieces) {
      const at = text.indexOf(piece, searchFrom);
      searchFrom = at + piece.length;
      cursor = lead + at;
      const markdown = piece.trim();
      if (!markdown) continue;
      const plain = plainText(markdown);
      // A lone citation or a fragment without words is no claim.
      if (plain.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length < 3 || CITATION_ONLY.test(markdown) && plain === "") continue;
      const start = lineStart + cursor + (piece.length - piece.trimStart().length);
      claims.push({ position: claims.length, markdown, text: plain, urls: citedUrls(markdown), start, end: start + markdown.length });
    }
  }
  return claims;
}
