// The passages of a page that match an objective, ranked in process (BM25 over the page's own
// passages): what a query sends to the analyser for a page that another query of the research has
// already read in full.
import { estimateTokens } from "../ai/prompts";
import { BoundedMap } from "../bounded-map";

/** A passage is a paragraph, or a run of its sentences, of at most about this many tokens. */
const PASSAGE_TOKENS = 120;
/** Passages scoring below this share of the best one do not match the objective. */
const RELATIVE_THRESHOLD = 0.5;

const STOPWORDS = new Set(
  "about above after again against also among and any are because been before being below between both but can could did does doing down during each few find for from further had has have having her here hers him his how into its itself just more most near not now off once only other our out over own same she should some such than that the their theirs them then there these they this those through too under until very was were what when where which while who whom why will with would you your".split(" "),
);

function terms(text: string): string[] {
  return (text.toLowerCase().normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOPWORDS.has(w))
    .map(stem);
}

/** A crude English stem (plurals), enough to match "batteries" with "battery". */
function stem(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

/** Paragraphs, long ones cut at sentence ends into pieces of about PASSAGE_TOKENS. */
export function splitPassages(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n\s*\n|\n/)) {
    const p = paragraph.trim();
    if (!p) continue;
    if (estimateTokens(p) <= PASSAGE_TOKENS) {
      out.push(p);
      continue;
    }
    let current = "";
    // A sentence ends at . ! or ? before white space: "4.2 GW" and "e.g.," stay inside their sentence.
    for (const sentence of p.match(/.+?(?:[.!?]+["')\]]*(?:\s+|$)|$)/gs) ?? [p]) {
      if (current && estimateTokens(current + sentence) > PASSAGE_TOKENS) {
        out.push(current.trim());
        current = "";
      }
      current += sentence;
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}

/** A page's passages with their terms, as BM25 needs them: made once per page text, not per objective. */
interface PageIndex {
  passages: string[];
  docs: { counts: Map<string, number>; length: number }[];
  /** Average passage length in terms. */
  avg: number;
  /** How many passages have each term. */
  df: Map<string, number>;
  /** The page text's length: what the index weighs in the memory below. */
  chars: number;
}

function indexPage(text: string): PageIndex {
  const passages = splitPassages(text);
  const df = new Map<string, number>();
  const docs = passages.map((p) => {
    const counts = new Map<string, number>();
    const words = terms(p);
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const w of counts.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    return { counts, length: words.length };
  });
  return { passages, docs, avg: docs.reduce((n, d) => n + d.length, 0) / docs.length || 1, df, chars: text.length };
}

/**
 * The latest pages' indexes, within 8M characters of their text: a page read again is read again by
 * many queries of its research (each with its own objective), and its passages and terms are the same
 * every time.
 */
const indexes = new BoundedMap<string, PageIndex>(8_000_000, (index) => index.chars);

/**
 * The passages of `text` that match `objective` (BM25 against the page's own passages; at least half
 * the best score), best first until `budgetTokens`, returned in page order joined by "[…]". Empty
 * when nothing matches.
 */
export function matchingPassages(text: string, objective: string, budgetTokens: number): string {
  const { passages, docs, avg, df } = indexes.getOrAdd(text, () => indexPage(text));
  const wanted = [...new Set(terms(objective))];
  if (passages.length === 0 || wanted.length === 0) return "";
  const idf = new Map(wanted.map((t) => [t, Math.log(1 + (docs.length - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5))]));
  const k1 = 1.2;
  const b = 0.75;
  const scored = docs.map((d, index) => {
    let score = 0;
    for (const t of wanted) {
      const tf = d.counts.get(t) ?? 0;
      if (tf) score += idf.get(t)! * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / avg)));
    }
    return { index, score };
  });
  const best = Math.max(...scored.map((s) => s.score));
  if (best <= 0) return "";
  const chosen: number[] = [];
  let used = 0;
  for (const s of [...scored].sort((x, y) => y.score - x.score || x.index - y.index)) {
    if (s.score < best * RELATIVE_THRESHOLD) break;
    const cost = estimateTokens(passages[s.index]) + 2;
    if (used + cost > budgetTokens) {
      if (chosen.length === 0) chosen.push(s.index);
      break;
    }
    chosen.push(s.index);
    used += cost;
  }
  return chosen
    .sort((x, y) => x - y)
    .map((i) => passages[i])
    .join("\n[…]\n");
}

/** The token budget of a page read again for another objective: an eighth of PAGE_TOKEN_BUDGET, at least 250. */
export function rereadBudget(pageTokenBudget: number): number {
  return Math.min(pageTokenBudget, Math.max(250, Math.floor(pageTokenBudget / 8)));
}
