// Where a page says what a quote paraphrases. Models asked to copy a passage word for word often
// reword it a little or put its clauses in another order ("In 2023, prices fell 14%" for the page's
// "Prices fell 14% in 2023"): the in-order alignment (./align.ts locateQuote) finds no stretch holding
// 80% of the quote's words in order, and the evidence was lost. Here the page's sentence (or two
// adjacent sentences) holding every figure of the quote and most of its key terms, in any order, is
// taken as the place the quote came from — and what is stored and shown is the page's own wording
// there, never the model's. The caller still checks that it carries the claim (./content.ts).
import type { Located } from "./align";
import { sentenceRanges } from "./claims";
import { carriedBy, keyTerms, termsHeld } from "./content";

/** Share of the quote's key terms a sentence must hold (every figure too). */
const MIN_SHARE = 0.8;
/** Fewer key terms than this say too little to recognise a sentence by. */
const MIN_TERMS = 3;

/** The page's sentence(s) the quote paraphrases, or undefined when none holds enough of it. */
export function locateParaphrase(quote: string, source: string): Located | undefined {
  const terms = keyTerms(quote);
  const termCount = terms.stems.length + terms.unspaced.length;
  if (termCount < MIN_TERMS) return undefined;
  const ranges = sentenceRanges(source);
  let best: { start: number; end: number; share: number } | undefined;
  for (let i = 0; i < ranges.length; i++) {
    // One sentence, then it and the next.
    for (const last of [i, i + 1].filter((j) => j < ranges.length)) {
      const { start } = ranges[i];
      const { end } = ranges[last];
      const held = termsHeld(terms, source.slice(start, end));
      const share = held.terms / termCount;
      if (held.numbers < terms.numbers.length || share < MIN_SHARE) continue;
      // The most of the quote, then the shortest stretch (one sentence before two).
      if (!best || share > best.share || (share === best.share && end - start < best.end - best.start)) best = { start, end, share };
    }
  }
  if (!best) return undefined;
  // Without the white space around the sentence(s).
  const text = source.slice(best.start, best.end);
  const start = best.start + (text.length - text.trimStart().length);
  const end = best.end - (text.length - text.trimEnd().length);
  return { text: source.slice(start, end), start, end, spans: [{ start, end }] };
}

/** A source's text as the cheap look reads it (lower case, no thousands separators), once per source object. */
const lowerCache = new WeakMap<object, string>();
function lowered(source: { text: string }): string {
  let lower = lowerCache.get(source);
  if (lower === undefined) lowerCache.set(source, (lower = source.text.toLowerCase().replace(/(\d),(?=\d{3}\b)/g, "$1")));
  return lower;
}

/**
 * Another source (of `sources`, none of `cited`; the first in their order) that says what a sentence says —
 * a sentence (or two) of it holding every figure and most key terms of the sentence, and carrying it
 * (carriedBy) — or undefined when none does. A model that cites S3 for what S4 says has misnamed its
 * source: the sentence is cited to S4 and judged again, instead of being rewritten to S3's words or removed.
 */
export function citedElsewhere(sentence: string, cited: readonly string[], sources: ReadonlyMap<string, { text: string }>): string | undefined {
  const terms = keyTerms(sentence);
  if (terms.stems.length + terms.unspaced.length < MIN_TERMS) return undefined;
  // A cheap look first: a page without the sentence's figures or most of its stems is passed by unsegmented.
  const needles = [...terms.numbers, ...terms.stems, ...terms.unspaced];
  for (const [url, source] of sources) {
    if (cited.includes(url) || !source.text) continue;
    const lower = lowered(source);
    if (terms.numbers.some((n) => !lower.includes(n))) continue;
    if (needles.filter((n) => lower.includes(n)).length < MIN_SHARE * needles.length) continue;
    const located = locateParaphrase(sentence, source.text);
    if (located && carriedBy(sentence, located.text) === "supported") return url;
  }
  return undefined;
}
