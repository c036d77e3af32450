// The sentences of a report that a verification judges: every sentence of its prose and list items
// (headings, code, tables and the generated source list are not claims), with the URLs it cites and
// its place in the Markdown, so that a repair can rewrite or remove exactly that sentence.
// Sentences are split by the Unicode segmenter (Intl.Segmenter), in any language: a Chinese or
// Japanese sentence ends at 。 with no space after it, and Thai words have no spaces between them.
import { SOURCE_WORDS, splitNumberedSources } from "../report-citations";

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
  /**
   * A row of a Markdown table: one claim, its cells' text apart by " | " and cited by every citation in
   * the row (a "Source" column cites its row). A repair removes the row or leaves it; it never writes a
   * sentence into the table.
   */
  row?: boolean;
  /**
   * An uncited sentence's paragraph citations: those of the next cited sentence of its paragraph (or list
   * item), as a citation at a paragraph's end covers the sentences before it ("A. B. C [1]."). The sentence is
   * checked against them too; it stays uncited in the text.
   */
  covering?: string[];
}

const LINK = /\[([^\]\n]*)\]\((https?:\/\/[^)\s]+)(?:\s+"[^"]*")?\)/g;
const CITATION_ONLY = /^\s*(\(\s*)?\[(\d+|source|\[\d+\])\]\(https?:\/\/[^)\s]+\)(\s*\))?/;
// Citation markers at the start of a segment belong to the sentence before: "… fell 20%. [1](…) Next".
const LEADING_CITATIONS = /^(?:\s*\(?\s*\[(?:\d+|source|\[\d+\])\]\(https?:\/\/[^)\s]+(?:\s+"[^"]*")?\)\s*\)?)+/;

/** Numeric citations right after a sentence's end mark ("20%.[1](…)[2](…)"): group 1, the citations. */
const CITED_AT_THE_END = /[.!?。！？]((?:\[(?:\d+|source|\[\d+\])\]\(https?:\/\/[^)\s]+(?:\s+"[^"]*")?\))+)/g;

// Locale-agnostic: the default rules of Unicode's text segmentation (UAX #29), with the runtime's dictionaries for Thai and CJK words.
const SENTENCES = new Intl.Segmenter(undefined, { granularity: "sentence" });
const WORDS = new Intl.Segmenter(undefined, { granularity: "word" });

/** Plain text of a sentence: numeric citations dropped, descriptive links kept as their words. */
export function plainText(markdown: string): string {
  return markdown
    .replace(LINK, (_whole, text: string) => (/^(\d+|source|\[\d+\])$/i.test(text.trim()) ? "" : text))
    .replace(/[*_`]+/g, "")
    .replace(/\(\s*\)/g, "")
    .replace(/\s+([.,;:!?。！？、，])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

function citedUrls(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(LINK)].map((m) => m[2]))];
}

/** Words of a text with a letter in them (a Chinese word counts as one, as a Thai one does). */
export function wordCount(text: string): number {
  let n = 0;
  for (const s of WORDS.segment(text)) if (s.isWordLike && /\p{L}/u.test(s.segment)) n++;
  return n;
}

/** A sentence's plain text says enough to be a claim: three words or more. */
export function isClaimText(plain: string): boolean {
  return wordCount(plain) >= 3;
}

/**
 * The sentences of one line of text, as [start, end) offsets (untrimmed). Links are hidden from the
 * segmenter (a full stop in a URL or a link's words ends no sentence), and citation markers that open
 * a segment are given back to the sentence they follow.
 */
export function sentenceRanges(text: string): { start: number; end: number }[] {
  // Same length, so that offsets hold; capitals, so that "20%. [1](…) Next" still ends a sentence.
  let masked = text.replace(LINK, (whole: string, label: string) => `[${label.replace(/[.!?。！？]/g, ",")}](${"X".repeat(whole.length - label.length - 4)})`);
  // Citations written right after a sentence's end, with no space ("… fell 20%.[1](…) Next", as in print): blanks to
  // the segmenter, which would end the sentence inside the first one ("… 20%.[" and "1](…) Next"), so that they
  // stay with the sentence they follow.
  for (const m of text.matchAll(CITED_AT_THE_END)) {
    const at = m.index + m[0].length - m[1].length;
    masked = masked.slice(0, at) + " ".repeat(m[1].length) + masked.slice(at + m[1].length);
  }
  const ranges = [...SENTENCES.segment(masked)].map((s) => ({ start: s.index, end: s.index + s.segment.length }));
  for (let i = 1; i < ranges.length; i++) {
    const lead = LEADING_CITATIONS.exec(text.slice(ranges[i].start, ranges[i].end))?.[0].length ?? 0;
    if (lead === 0) continue;
    ranges[i - 1].end += lead;
    ranges[i].start += lead;
  }
  return ranges.filter((r) => r.end > r.start);
}

/** The sentences of a text (a correction, say), trimmed, split as a report's are. */
export function sentencesOf(text: string): string[] {
  return sentenceRanges(text)
    .map((r) => text.slice(r.start, r.end).trim())
    .filter(Boolean);
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
  const lines = body.split("\n");
  /** The claims of the last prose line, while a sources line after it may still cover them (a blank line between kept). */
  let before: { first: number; end: number } | undefined;
  for (const [i, line] of lines.entries()) {
    const lineStart = offset;
    offset += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    if (!line.trim()) continue;
    const after = before;
    before = undefined;
    if (/^\s*\|/.test(line)) {
      // A header row (the delimiter row under it) holds column titles, no claim.
      const row = DELIMITER_ROW.test(lines[i + 1] ?? "") ? null : tableRow(line, lineStart);
      if (row) claims.push({ ...row, position: claims.length });
      continue;
    }
    if (/^\s*(#{1,6}\s|>?\s*$|```|~~~|---+\s*$|\*\*\*+\s*$)/.test(line)) continue;
    // The text of a paragraph line or a list item, after its marker.
    const lead = /^\s*(?:>\s*)?(?:[-*+]\s+|\d+[.)]\s+)?/.exec(line)?.[0].length ?? 0;
    const text = line.slice(lead);
    // A line of sources alone ("Sources: [1](…), [2](…)") under a paragraph: its citations cover the paragraph's
    // uncited sentences before them, as a citation at the paragraph's end does.
    if (isSourcesOnly(text)) {
      if (after) cover(claims.slice(after.first, after.end), citedUrls(text));
      continue;
    }
    const first = claims.length;
    /** Where a trailing "(Sources: [1](…), [2](…))" of the line stood: its citations, after the claims before it. */
    const sourcesAt: { after: number; urls: string[] }[] = [];
    for (const range of sentenceRanges(text)) {
      const piece = text.slice(range.start, range.end);
      const markdown = piece.trim();
      if (!markdown) continue;
      const plain = plainText(markdown);
      if (isSourcesOnly(markdown, plain)) {
        sourcesAt.push({ after: claims.length, urls: citedUrls(markdown) });
        continue;
      }
      // A lone citation or a fragment without words is no claim.
      if (!isClaimText(plain) || (CITATION_ONLY.test(markdown) && plain === "")) continue;
      const start = lineStart + lead + range.start + (piece.length - piece.trimStart().length);
      claims.push({ position: claims.length, markdown, text: plain, urls: citedUrls(markdown), start, end: start + markdown.length });
    }
    // The paragraph's citations cover its uncited sentences before them.
    for (const { after: end, urls } of sourcesAt) cover(claims.slice(first, end), urls);
    cover(claims.slice(first), []);
    before = { first, end: claims.length };
  }
  return claims;
}

/**
 * The uncited claims before each cited one (or before `trailing` citations after them all) covered by its
 * citations; a claim covered already keeps what covers it nearest.
 */
function cover(claims: Claim[], trailing: string[]): void {
  let next: string[] | undefined = trailing.length > 0 ? trailing : undefined;
  for (let k = claims.length - 1; k >= 0; k--) {
    if (claims[k].urls.length > 0) next = claims[k].urls;
    else if (next && !claims[k].covering) claims[k].covering = next;
  }
}

/** A label a line or a part of one may put before its sources: "Sources:", "**References:**", "(Source: …)". */
const SOURCES_WORDS = new RegExp(`(?<![\\p{L}\\p{N}])(?:${SOURCE_WORDS}|reference|citation|cited)(?![\\p{L}\\p{N}])\\s*[:：]?`, "giu");
/** "and" between a line's citations ("[1] and [2]"), in the languages reports are written in. */
const AND_WORDS = /(?<![\p{L}\p{N}])(?:and|und|et|y|e|en|och|og|i|oraz|a|ve|dan|и|і|та)(?![\p{L}\p{N}])|[和及与與및]/giu;

/** Whether a line or a sentence is citations alone, labelled or not ("Sources: [1](…), [2](…)"): no words of a claim. */
function isSourcesOnly(markdown: string, plain = plainText(markdown)): boolean {
  if (citedUrls(markdown).length === 0) return false;
  return plain.replace(SOURCES_WORDS, "").replace(/[\s,;:.()[\]–—&、，；：（）。-]+/g, "").replace(AND_WORDS, "") === "";
}

/** A table's delimiter row: "| --- | :---: |". */
const DELIMITER_ROW = /^\s*\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?$/;

/** A table row as a claim, or null for a delimiter row or one that says too little. */
function tableRow(line: string, lineStart: number): Omit<Claim, "position"> | null {
  if (DELIMITER_ROW.test(line)) return null;
  const markdown = line.trim();
  const cells = markdown.replace(/^\|/, "").replace(/(?<!\\)\|$/, "").split(/(?<!\\)\|/).map((cell) => plainText(cell.replace(/\\\|/g, "|"))).filter(Boolean);
  const text = cells.join(" | ");
  if (!isClaimText(text)) return null;
  const start = lineStart + (line.length - line.trimStart().length);
  return { markdown, text, urls: citedUrls(markdown), start, end: start + markdown.length, row: true };
}