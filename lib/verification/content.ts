// Does a quote carry the sentence's content? A quote found in the page proves only that the page
// says it: "According to" occurs in most pages, and it once made 13 invented sentences "supported".
// A quote supports a sentence when the sentence's figures and a good share of its key terms (its
// content words: four letters or more and no stop word; in Chinese, Japanese or Thai, its words of
// two characters or more) are in it. Support needs every figure and half the key terms; partial
// support some of the figures and a third of the key terms, or, from a quote stating no figure at
// all, half the key terms.
import { normalNumber, tokenize } from "./align";
import { languageOf, notWrittenIn } from "../ai/language";

export type Carried = "supported" | "partial" | "none";

// Function words and report framing of four letters or more: they carry no claim.
const STOP = new Set(
  (
    "about above according across after again against along also although among another around because been before being below between both " +
    "could does doing down during each either else even every from further have having here however into itself just least less like many more " +
    "most much must neither only other others over same says said several shall should since some such than that their theirs them themselves " +
    "then there therefore these they this those though through thus under until upon very were what whatever when where whether which while " +
    "whom whose will with within without would your yours instead report reports reported states stated percent cent"
  ).split(" "),
);

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORDS = new Intl.Segmenter(undefined, { granularity: "word" });

/** A word's stem as compared: its singular's first five letters ("doubled", "doubling" → "doubl"; "cities" → "city"). */
export function stemOf(word: string): string {
  return word.replace(/ies$/, "y").replace(/s$/, "").slice(0, 5);
}

export interface KeyTerms {
  numbers: string[];
  /** Stems of the content words of spaced scripts. */
  stems: string[];
  /** Words of unspaced scripts (Chinese, Japanese, Thai), as written. */
  unspaced: string[];
}

export function keyTerms(sentence: string): KeyTerms {
  const numbers = new Set<string>();
  const stems = new Set<string>();
  for (const t of tokenize(sentence)) {
    if (/^\p{N}/u.test(t.norm)) numbers.add(t.norm);
    else if (!UNSPACED.test(t.norm) && (t.norm.match(/\p{L}/gu)?.length ?? 0) >= 4 && !STOP.has(t.norm)) stems.add(stemOf(t.norm));
  }
  const unspaced = new Set<string>();
  for (const s of WORDS.segment(sentence.normalize("NFKC"))) {
    if (s.isWordLike && UNSPACED.test(s.segment) && [...s.segment].length >= 2 && !/\p{N}/u.test(s.segment)) unspaced.add(s.segment.toLowerCase());
  }
  return { numbers: [...numbers].map(normalNumber), stems: [...stems], unspaced: [...unspaced] };
}

/** How many of the figures and of the key terms (stems, unspaced words) a text holds. */
export function termsHeld(terms: KeyTerms, text: string, tokens = tokenize(text)): { numbers: number; terms: number } {
  const numbers = new Set(tokens.filter((t) => /^\p{N}/u.test(t.norm)).map((t) => t.norm));
  const stems = new Set(tokens.map((t) => stemOf(t.norm)));
  const compact = terms.unspaced.length > 0 ? text.normalize("NFKC").toLowerCase().replace(/\s+/g, "") : "";
  return {
    numbers: terms.numbers.filter((n) => numbers.has(n)).length,
    terms: terms.stems.filter((s) => stems.has(s)).length + terms.unspaced.filter((w) => compact.includes(w)).length,
  };
}

/** A text's figures as written ("1.200", "14,5"), before they are read. */
const figuresOf = (text: string): string[] => [...text.normalize("NFKC").matchAll(/\p{N}+(?:[.,]\p{N}+)*/gu)].map((m) => m[0]);

/** The values a figure may be read as, in English's way and in continental Europe's: "1.200" is 1200 or 1.2, "14,5" 14.5. */
function readings(figure: string): string[] {
  const english = Number(figure.replace(/,/g, ""));
  const continental = Number(figure.replace(/\./g, "").replace(",", "."));
  return [...new Set([english, continental].filter((n) => !Number.isNaN(n)).map(String))];
}

/** Whether a sentence and its quote are clearly in different languages (a German report citing an English page). */
function inOtherLanguages(sentence: string, quote: string): boolean {
  const [a, b] = [languageOf(sentence), languageOf(quote)];
  if (!a || !b) return false;
  if (a.script !== b.script) return true;
  if (a.code && b.code) return a.code !== b.code;
  // One side's language is told, the other's is not: another when it has none of the told one's function words.
  if (a.code) return notWrittenIn(quote, a.code);
  return b.code ? notWrittenIn(sentence, b.code) : false;
}

/**
 * A sentence in another language than its quote: its words cannot be compared with the quote's, only its
 * figures. The verifier judged its meaning; what is checked here is that the quote is a statement (three key
 * terms at least: not "According to") and holds every figure of the sentence, read either way.
 */
function carriedAcross(sentence: string, quote: string): Carried {
  const own = keyTerms(quote);
  if (own.stems.length + own.unspaced.length < 3) return "none";
  const figures = figuresOf(sentence);
  if (figures.length === 0) return "supported";
  const held = new Set(figuresOf(quote).flatMap(readings));
  const found = figures.filter((n) => readings(n).some((r) => held.has(r))).length;
  return found === figures.length ? "supported" : found > 0 ? "partial" : "none";
}

/**
 * How much of the sentence's content the quote carries. A sentence in another language than its quote (the
 * report is written in the user's, its sources in theirs) is judged by its figures alone.
 */
export function carriedBy(sentence: string, quote: string): Carried {
  const terms = keyTerms(sentence);
  const tokens = tokenize(quote);
  if (tokens.length > 0 && inOtherLanguages(sentence, quote)) return carriedAcross(sentence, quote);
  const { numbers: numbersIn, terms: termsIn } = termsHeld(terms, quote, tokens);
  const termCount = terms.stems.length + terms.unspaced.length;
  if (tokens.length === 0) return "none";
  // A sentence with neither figures nor key terms: half its words must be in the quote.
  if (termCount === 0 && terms.numbers.length === 0) {
    const own = tokenize(sentence);
    const words = new Set(tokens.map((t) => t.norm));
    return own.filter((t) => words.has(t.norm)).length * 2 >= own.length ? "supported" : "none";
  }
  const share = termCount === 0 ? 1 : termsIn / termCount;
  if (numbersIn === terms.numbers.length && share >= 0.5) return "supported";
  if ((terms.numbers.length === 0 || numbersIn > 0) && share >= 1 / 3 && (termCount === 0 || termsIn > 0)) return "partial";
  // Figures the sentence adds to a quote that states none ("…, and it is expected to double by 2031"):
  // the rest is carried, the figures are not. A quote with figures of its own contradicts them instead.
  if (numbersIn === 0 && termCount > 0 && share >= 0.5 && !tokens.some((t) => /^\p{N}/u.test(t.norm))) return "partial";
  return "none";
}
