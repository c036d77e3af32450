// Attribution, checked in code: every reference must name a URL that was actually read, and its
// quote must occur in that page's stored text (whitespace-normalised). The model's word is not taken.
// A quote the model attached to the wrong page (or to one never read) is re-attributed to the read
// page that contains it: the quote is the evidence, the URL a slip (most dropped quotes were these).
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
  /** One line per reference moved to the page that really holds its quote. */
  reattributed: string[];
}

export function checkReferences(references: { url: string; exactQuote: string }[], pages: ReadPage[]): AttributionResult {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const texts = new Map(pages.map((p) => [p.url, normaliseSpace(p.content)]));
  const verified: Reference[] = [];
  const problems: string[] = [];
  const reattributed: string[] = [];
  for (const ref of references) {
    const url = normaliseUrl(ref.url) ?? ref.url;
    const quote = normaliseSpace(ref.exactQuote);
    let page = byUrl.get(url);
    if (quote.length < MIN_QUOTE_CHARS) {
      problems.push(page ? `The quote for ${ref.url} is too short to prove anything` : `${ref.url} was never read: only pages that were visited can be cited`);
      continue;
    }
    if (!page || !texts.get(page.url)!.includes(quote)) {
      const holder = pages.find((p) => texts.get(p.url)!.includes(quote));
      if (!holder) {
        problems.push(page ? `The quote "${quote.slice(0, 120)}" does not occur in ${ref.url}` : `${ref.url} was never read: only pages that were visited can be cited`);
        continue;
      }
      reattributed.push(`The quote "${quote.slice(0, 120)}" is from ${holder.url}, not ${ref.url}`);
      page = holder;
    }
    if (!verified.some((v) => v.url === page.url && v.exactQuote === quote)) verified.push({ url: page.url, title: page.title ?? page.url, exactQuote: quote });
  }
  return { verified, problems, reattributed };
}
