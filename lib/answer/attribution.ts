// Attribution, checked in code: every reference must name a URL that was actually read, and its
// quote must occur in that page's stored text (whitespace-normalised). The model's word is not taken.
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
  /** The references that hold, with the page's title. */
  verified: Reference[];
  /** One line per reference that does not. */
  problems: string[];
}

export function checkReferences(references: { url: string; exactQuote: string }[], pages: ReadPage[]): AttributionResult {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const verified: Reference[] = [];
  const problems: string[] = [];
  for (const ref of references) {
    const url = normaliseUrl(ref.url) ?? ref.url;
    const page = byUrl.get(url);
    const quote = normaliseSpace(ref.exactQuote);
    if (!page) problems.push(`${ref.url} was never read: only pages that were visited can be cited`);
    else if (quote.length < MIN_QUOTE_CHARS) problems.push(`The quote for ${ref.url} is too short to prove anything`);
    else if (!normaliseSpace(page.content).includes(quote)) problems.push(`The quote "${quote.slice(0, 120)}" does not occur in ${ref.url}`);
    else if (!verified.some((v) => v.url === url && v.exactQuote === quote)) verified.push({ url, title: page.title ?? url, exactQuote: quote });
  }
  return { verified, problems };
}
