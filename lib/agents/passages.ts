// The passages of a page that match an objective, ranked in process (BM25 over the page's own
// passages): what a query sends to the analyser for a page that another query of the research has
// already read in full.
import { estimateTokens } from "../ai/prompts";

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

/**
 * The passages of `text` that match `objective` (BM25 against the page's own passages; at least half
 * the best score), best first until `budgetTokens`, returned in page order joined by "[…]". Empty
 * when nothing matches.
 */
export function matchingPassages(text: string, objective: string, budgetTokens: number): string {
  const passages = splitPassages(text);
  const wanted = [...new Set(terms(objective))];
  if (passages.length === 0 || wanted.length === 0) return "";
  const docs = passages.map((p) => {
    const counts = new Map<string, number>();
    const words = terms(p);
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    return { counts, length: words.length };
  });
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length || 1;
  const idf = new Map(wanted.map((t) => [t, Math.log(1 + (docs.length - docs.filter((d) => d.counts.has(t)).length + 0.5) / (docs.filter((d) => d.counts.has(t)).length + 0.5))]));
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
