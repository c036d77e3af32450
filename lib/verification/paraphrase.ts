// Where a page says what a quote paraphrases. Models asked to copy a passage word for word often
// reword it a little or put its clauses in another order ("In 2023, prices fell 14%" for the page's
// "Prices fell 14% in 2023"): the in-order alignment (./align.ts locateQuote) finds no stretch holding
// 80% of the quote's words in order, and the evidence was lost. Here the page's sentence (or two
// adjacent sentences) holding every figure of the quote and most of its key terms, in any order, is
// taken as the place the quote came from — and what is stored and shown is the page's own wording
// there, never the model's. The caller still checks that it carries the claim (./content.ts).
import { normalNumber, tokenize, type Located } from "./align";
import { sentenceRanges } from "./claims";
import { keyTerms, stemOf } from "./content";

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
  // Each sentence's stems, figures and compact text, once.
  const sentences = ranges.map(({ start, end }) => {
    const text = source.slice(start, end);
    const tokens = tokenize(text);
    return {
      start,
      end,
      stems: new Set(tokens.map((t) => stemOf(t.norm))),
      numbers: new Set(tokens.filter((t) => /^\p{N}/u.test(t.norm)).map((t) => normalNumber(t.norm))),
      compact: terms.unspaced.length > 0 ? text.normalize("NFKC").toLowerCase().replace(/\s+/g, "") : "",
    };
  });
  let best: { start: number; end: number; share: number } | undefined;
  for (let i = 0; i < sentences.length; i++) {
    for (const span of [1, 2]) {
      const parts = sentences.slice(i, i + span);
      if (parts.length < span) break;
      const has = (test: (s: (typeof parts)[number]) => boolean) => parts.some(test);
      if (!terms.numbers.every((n) => has((s) => s.numbers.has(n)))) continue;
      const held = terms.stems.filter((stem) => has((s) => s.stems.has(stem))).length + terms.unspaced.filter((w) => has((s) => s.compact.includes(w))).length;
      const share = held / termCount;
      if (share < MIN_SHARE) continue;
      const start = parts[0].start;
      const end = parts[parts.length - 1].end;
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
