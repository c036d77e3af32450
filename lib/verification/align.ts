// Locating a verifier's quote in a source's stored text. Models copy a passage near-verbatim, not
// verbatim: other quotation marks and dashes, punctuation dropped or added, a line break made a
// space, an ellipsis for what they left out. So a quote is aligned, not string-matched: both texts
// become words (Unicode-normalised, lower case, punctuation dropped; a Chinese, Japanese or Thai
// character is a word of its own), and the quote is found where most of its words (80%) occur in
// order within a stretch of the source not much longer than the quote (1.5×); the parts of a quote
// with an ellipsis are aligned each in its turn, close to one another. What is kept is the source's
// own text there, by character offsets, the elided words included: the stored quote is always the
// page's wording, and what it shows is what the page says in that passage. A quote that cannot be
// located is not found (undefined), and a verdict resting on it stands not.

export interface Token {
  /** As compared: NFKC, lower case, no apostrophes, numbers without thousands separators. */
  norm: string;
  /** Offsets in the original text. */
  start: number;
  end: number;
}

// Scripts written without spaces between words: each character is a token (an alignment of
// characters finds a Chinese quote as well as one of words finds an English one).
const UNSPACED = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}";
const WORD_CHAR = `(?:(?![${UNSPACED}])[\\p{L}\\p{M}\\p{N}])`;
const TOKEN = new RegExp(`[${UNSPACED}]|\\p{N}+(?:[.,]\\p{N}+)*|${WORD_CHAR}+(?:['’]${WORD_CHAR}+)*`, "gu");

/** A number as compared: "1,200" is 1200, "3.50" is 3.5; other forms ("1,5", "1.200") stay as written. */
export function normalNumber(text: string): string {
  const plain = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replace(/,/g, "") : text;
  return /^\d+\.\d+$/.test(plain) ? plain.replace(/\.?0+$/, "") : plain;
}

export function normToken(raw: string): string {
  const t = raw.normalize("NFKC").toLowerCase().replace(/['’]/g, "");
  return /^\p{N}/u.test(t) ? normalNumber(t) : t;
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) out.push({ norm: normToken(m[0]), start: m.index, end: m.index + m[0].length });
  return out;
}

interface SourceIndex {
  tokens: Token[];
  /** Where each word occurs, in order. */
  at: Map<string, number[]>;
}

// The sentences checked against one source arrive one after another: its index is built once.
const indexes = new Map<string, SourceIndex>();

function indexOf(text: string): SourceIndex {
  const cached = indexes.get(text);
  if (cached) return cached;
  const tokens = tokenize(text);
  const at = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    const list = at.get(t.norm);
    if (list) list.push(i);
    else at.set(t.norm, [i]);
  });
  const index = { tokens, at };
  indexes.set(text, index);
  if (indexes.size > 8) indexes.delete(indexes.keys().next().value as string);
  return index;
}

/** Share of a quote's words that must occur in order. */
const MIN_SHARE = 0.8;
/** The stretch of source a quote may spread over, in its own length. */
const MAX_SPREAD = 1.5;
/** What an ellipsis may leave out, in words: a clause or a sentence or two, not a page (twice the quote, at least 50). */
const maxElided = (quoteTokens: number) => Math.max(50, 2 * quoteTokens);
/** Longer quotes are no quote of one or two sentences; aligning them would cost too much. */
const MAX_QUOTE_TOKENS = 1_000;
/** Regions of the source tried for one quote (those with the most of its words). */
const CANDIDATES = 6;

const ELLIPSIS = /\s*(?:\[\s*(?:…|\.{3})\s*\]|…|\.\s?\.\s?\.)\s*/u;

export interface Located {
  /** The source's own text from the quote's first word to its last (what an ellipsis left out included). */
  text: string;
  start: number;
  end: number;
  /** Each part's own span (one, or one per part of a quote with an ellipsis). */
  spans: { start: number; end: number }[];
}

/** The quote located in `source` (its own spans and text), or undefined when it is not there. */
export function locateQuote(quote: string, source: string): Located | undefined {
  const parts = quote.split(ELLIPSIS).map((raw) => ({ raw, tokens: tokenize(raw) })).filter((p) => p.tokens.length > 0);
  if (parts.length === 0 || parts.some((p) => p.tokens.length > MAX_QUOTE_TOKENS)) return undefined;
  const index = indexOf(source);
  const gap = maxElided(parts.reduce((n, p) => n + p.tokens.length, 0));
  const spans: { start: number; end: number }[] = [];
  let from = 0;
  for (const [k, part] of parts.entries()) {
    const hit = alignPart(part.tokens.map((t) => t.norm), index, from, k === 0 ? Infinity : from + gap);
    if (!hit) return undefined;
    spans.push(withPunctuation(source, index.tokens[hit.first].start, index.tokens[hit.last].end, part.raw));
    from = hit.last + 1;
  }
  const start = spans[0].start;
  const end = spans[spans.length - 1].end;
  return { text: source.slice(start, end), start, end, spans };
}

/**
 * The span widened over the source's own punctuation where the quote has some around its words:
 * "…40 gigawatts." keeps the page's full stop (or closing quotation mark), "40 gigawatts" does not.
 */
function withPunctuation(source: string, start: number, end: number, raw: string): { start: number; end: number } {
  const trimmed = raw.trim();
  const lead = /^[^\p{L}\p{N}\s]{0,3}/u.exec(trimmed)?.[0].length ?? 0;
  const trail = /[^\p{L}\p{N}\s]{0,3}$/u.exec(trimmed)?.[0].length ?? 0;
  const punct = (c: string | undefined) => c !== undefined && /[^\p{L}\p{N}\s]/u.test(c);
  for (let i = 0; i < lead && punct(source[start - 1]); i++) start--;
  for (let i = 0; i < trail && punct(source[end]); i++) end++;
  return { start, end };
}

/**
 * Where the quote's words `q` occur in order (≥ 80% of them) within 1.5× their length, at or after
 * token `from` and starting by `latest`: the first and last matched tokens, or undefined. Regions
 * are proposed by a vote of each quote word's occurrences (word index), then aligned exactly.
 */
function alignPart(q: string[], index: SourceIndex, from: number, latest: number): { first: number; last: number } | undefined {
  const m = q.length;
  const need = Math.ceil(MIN_SHARE * m);
  const maxSpan = Math.max(m + 2, Math.ceil(MAX_SPREAD * m));
  // Each occurrence of a quote word votes for where the quote would begin.
  const votes = new Map<number, number>();
  q.forEach((word, i) => {
    for (const p of index.at.get(word) ?? []) {
      if (p < from || p - i > latest + m) continue;
      votes.set(p - i, (votes.get(p - i) ?? 0) + 1);
    }
  });
  if (votes.size === 0) return undefined;
  // A region's score: the votes near its start (insertions and omissions shift a word's vote).
  const starts = [...votes.keys()].sort((a, b) => a - b);
  const reach = Math.ceil(0.4 * m) + 1;
  const scored: { start: number; score: number }[] = [];
  let lo = 0;
  let hi = 0;
  let sum = 0;
  for (const s of starts) {
    while (hi < starts.length && starts[hi] <= s + reach) sum += votes.get(starts[hi++]) ?? 0;
    while (starts[lo] < s - reach) sum -= votes.get(starts[lo++]) ?? 0;
    scored.push({ start: s, score: sum });
  }
  scored.sort((a, b) => b.score - a.score || a.start - b.start);
  const tried: number[] = [];
  let best: { first: number; last: number; score: number } | undefined;
  for (const { start, score } of scored) {
    if (tried.length >= CANDIDATES || score < Math.min(need, 2)) break;
    if (tried.some((t) => Math.abs(t - start) < m)) continue;
    tried.push(start);
    const lowEdge = Math.max(from, start - reach - 1);
    const highEdge = Math.min(index.tokens.length, start + maxSpan + reach + 1);
    const hit = alignWindow(q, index.tokens, lowEdge, highEdge);
    if (!hit || hit.matches < need || hit.last - hit.first + 1 > maxSpan || hit.first > latest) continue;
    if (!best || hit.score > best.score) best = hit;
  }
  return best && { first: best.first, last: best.last };
}

const MATCH = 1;
const MISS = 0.5;

/**
 * Semi-global alignment of the whole quote against a stretch of the source (its ends free): +1 per
 * word matched, -0.5 per quote word missing, per source word inserted, per word changed. Two rows
 * of scores, carrying each path's matched count and its first and last matched source token.
 */
function alignWindow(q: string[], tokens: Token[], lo: number, hi: number) {
  const width = hi - lo;
  if (width <= 0) return undefined;
  const row = () => ({ score: new Float64Array(width + 1), matches: new Int32Array(width + 1), first: new Int32Array(width + 1).fill(-1), last: new Int32Array(width + 1).fill(-1) });
  let prev = row();
  let cur = row();
  for (let i = 1; i <= q.length; i++) {
    cur.score[0] = -MISS * i;
    cur.matches[0] = 0;
    cur.first[0] = -1;
    cur.last[0] = -1;
    for (let j = 1; j <= width; j++) {
      const same = tokens[lo + j - 1].norm === q[i - 1];
      const diag = prev.score[j - 1] + (same ? MATCH : -MISS);
      const up = prev.score[j] - MISS;
      const left = cur.score[j - 1] - MISS;
      if (diag >= up && diag >= left) {
        cur.score[j] = diag;
        cur.matches[j] = prev.matches[j - 1] + (same ? 1 : 0);
        cur.first[j] = same && prev.first[j - 1] < 0 ? lo + j - 1 : prev.first[j - 1];
        cur.last[j] = same ? lo + j - 1 : prev.last[j - 1];
      } else if (up >= left) {
        cur.score[j] = up;
        cur.matches[j] = prev.matches[j];
        cur.first[j] = prev.first[j];
        cur.last[j] = prev.last[j];
      } else {
        cur.score[j] = left;
        cur.matches[j] = cur.matches[j - 1];
        cur.first[j] = cur.first[j - 1];
        cur.last[j] = cur.last[j - 1];
      }
    }
    [prev, cur] = [cur, prev];
  }
  let at = -1;
  for (let j = 1; j <= width; j++) if (prev.first[j] >= 0 && (at < 0 || prev.score[j] > prev.score[at])) at = j;
  if (at < 0) return undefined;
  return { score: prev.score[at], matches: prev.matches[at], first: prev.first[at], last: prev.last[at] };
}
