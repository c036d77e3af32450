// Attribution, checked in code: every reference must name a page that was actually read, and its
// quote must be located in that page's stored text. The model's word is not taken.
// A quote is located by a tolerant alignment (lib/verification/align.ts): models copy near-verbatim
// (other quotation marks, a comma dropped, a line break made a space, an ellipsis for a cut), so most
// of its words in order within a short stretch of the page is the quote, and what is stored is the
// page's own wording there. A quote the model attached to the wrong page (or to one never read) is
// re-attributed to the read page that holds it: the quote is the evidence, the URL a slip (most
// dropped quotes were these). A quote with no content word or figure ("According to the report")
// is in most pages and proves nothing.
import { locateQuote, tokenize } from "../verification/align";
import { locateParaphrase } from "../verification/paraphrase";
import { keyTerms } from "../verification/content";
import type { Reference } from "./types";
import { normaliseUrl } from "./urls";

/** Shortest quote accepted: "the" occurs everywhere and proves nothing. */
export const MIN_QUOTE_CHARS = 12;

export const normaliseSpace = (text: string) => text.normalize("NFKC").replace(/\s+/g, " ").trim();

export interface ReadPage {
  url: string;
  title: string | null;
  content: string;
}

export interface AttributionResult {
  /** The references that hold, with the page's title and the page's own words for the quote. */
  verified: Reference[];
  /** One line per reference that does not. */
  problems: string[];
  /** One line per reference moved to the page that really holds its quote. */
  reattributed: string[];
}

/** Whether a quote says anything a page could be cited for: a figure or a content word. */
function hasContent(quote: string): boolean {
  const terms = keyTerms(quote);
  return terms.numbers.length + terms.stems.length + terms.unspaced.length > 0;
}

const figures = (text: string) => tokenize(text).filter((t) => /^\p{N}/u.test(t.norm)).map((t) => t.norm);

/**
 * The quote as the page words it (white space folded), or undefined when the page does not hold it.
 * The alignment lets a fifth of the words differ; a figure may not: "256,000" is not "128,000".
 */
function locate(quote: string, page: ReadPage, normalised: Map<string, string>): string | undefined {
  let text = normalised.get(page.url);
  if (text === undefined) normalised.set(page.url, (text = normaliseSpace(page.content)));
  // Copied exactly: it is the page's wording already.
  if (text.includes(quote)) return quote;
  // Near-verbatim, or else reworded or in another order: the page's sentence it paraphrases, in the page's words.
  const found = locateQuote(quote, page.content) ?? locateParaphrase(quote, page.content);
  if (!found) return undefined;
  const there = new Set(figures(found.text));
  return figures(quote).every((n) => there.has(n)) ? normaliseSpace(found.text) : undefined;
}

/** The first of `pages` that holds the quote, with its wording of it. */
function holding(quote: string, pages: ReadPage[], normalised: Map<string, string>): { page: ReadPage; exactQuote: string } | undefined {
  for (const page of pages) {
    const exactQuote = locate(quote, page, normalised);
    if (exactQuote !== undefined) return { page, exactQuote };
  }
  return undefined;
}

export function checkReferences(references: { url: string; exactQuote: string }[], pages: ReadPage[]): AttributionResult {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const normalised = new Map<string, string>();
  const verified: Reference[] = [];
  const problems: string[] = [];
  const reattributed: string[] = [];
  for (const ref of references) {
    const url = normaliseUrl(ref.url) ?? ref.url;
    const quote = normaliseSpace(ref.exactQuote);
    const page = byUrl.get(url);
    if (quote.length < MIN_QUOTE_CHARS || !hasContent(quote)) {
      problems.push(page ? `The quote "${quote.slice(0, 120)}" for ${ref.url} is too short or too general to prove anything` : `${ref.url} was never read: only pages that were visited can be cited`);
      continue;
    }
    let found = page && holding(quote, [page], normalised);
    if (!found) {
      found = holding(quote, pages.filter((p) => p !== page), normalised);
      if (!found) {
        problems.push(page ? `The quote "${quote.slice(0, 120)}" does not occur in ${ref.url}` : `${ref.url} was never read: only pages that were visited can be cited`);
        continue;
      }
      reattributed.push(`The quote "${quote.slice(0, 120)}" is from ${found.page.url}, not ${ref.url}`);
    }
    const { page: holder, exactQuote } = found;
    if (!verified.some((v) => v.url === holder.url && v.exactQuote === exactQuote)) verified.push({ url: holder.url, title: holder.title ?? holder.url, exactQuote });
  }
  return { verified, problems, reattributed };
}
