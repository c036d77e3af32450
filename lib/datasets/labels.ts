// What a figure is written about: the row labels (a result's text values, "west", "anvil") and the
// column names ("orders", "avg_price") a sentence mentions near it. "West had 4,079 orders" says 4,079
// is in the row whose label is west: the figure's label is the nearest mention of each label column
// before it in its clause (else after it in the clause, else in a parenthesis right after it, else
// before or after it in its sentence); with "respectively" any label the sentence mentions may be
// the figure's.
import type { Cell } from "./values";

export interface Mention {
  column: number;
  value: string;
  start: number;
  end: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const NUMERIC_TEXT = /^[-+]?[\d.,]+%?$/;

/** The label columns of a result: columns whose kept cells are mostly words, not numbers. */
export function labelColumns(rows: Cell[][], width: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < width; c++) {
    const cells = rows.map((r) => r[c]).filter((v) => v !== null && v !== undefined);
    const words = cells.filter((v) => typeof v === "string" && !NUMERIC_TEXT.test(v.trim()));
    if (cells.length > 0 && words.length * 2 > cells.length) out.push(c);
  }
  return out;
}

/** A pattern for a label in prose: whole words, a plural allowed, spaces, hyphens and underscores alike; short codes (US, EU) in their case. */
function labelPattern(label: string): RegExp | null {
  const text = label.trim();
  if (text.length < 2 || text.length > 80) return null;
  const body = text.split(/[\s_-]+/).map(escape).join("[\\s_-]+");
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?:s|es)?(?![\\p{L}\\p{N}])`, text.length <= 3 ? "gu" : "giu");
}

/** The label values of the result's label columns that the text mentions, longest first where they overlap. */
export function labelMentions(text: string, rows: Cell[][], columns: number[]): Mention[] {
  const found: Mention[] = [];
  for (const c of columns) {
    const values = new Set(rows.map((r) => r[c]).filter((v): v is string => typeof v === "string").map((v) => v.trim()));
    for (const value of values) {
      const pattern = labelPattern(value);
      if (!pattern) continue;
      for (const m of text.matchAll(pattern)) found.push({ column: c, value, start: m.index, end: m.index + m[0].length });
    }
  }
  // "North" inside "North America" is not a mention of its own.
  found.sort((a, b) => (b.end - b.start) - (a.end - a.start));
  const kept: Mention[] = [];
  for (const m of found) if (!kept.some((k) => k.start <= m.start && m.end <= k.end && (k.end - k.start) > (m.end - m.start))) kept.push(m);
  return kept.sort((a, b) => a.start - b.start);
}

/** Where each clause of a sentence starts and ends: split at commas, semicolons, dashes and parentheses. */
export function clauses(sentence: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (const m of sentence.matchAll(/[,;]\s|\s[—–-]\s|[()]/g)) {
    out.push([start, m.index]);
    start = m.index + m[0].length;
  }
  out.push([start, sentence.length]);
  return out;
}

/** The clause a span of the sentence lies in. */
export function clauseOf(sentence: string, span: { index: number; end: number }): [number, number] {
  return clauses(sentence).find(([s, e]) => s <= span.index && span.end <= e) ?? [0, sentence.length];
}

/**
 * The labels a figure at [start, end) of the sentence is written with: per label column, the values
 * it must have in the figure's row (one, or every one mentioned with "respectively").
 */
export function figureLabels(sentence: string, mentions: Mention[], start: number, end: number): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const respectively = /\brespectively\b/i.test(sentence);
  const [cs, ce] = clauseOf(sentence, { index: start, end });
  // A parenthesis right after the figure names it: "from 4,079 (east) to 5,821 (south)".
  const next = /^[^.;,()]{0,30}\(([^()]*)\)/.exec(sentence.slice(end));
  const paren = next ? [end + next[0].length - 1 - next[1].length, end + next[0].length - 1] : null;
  for (const column of new Set(mentions.map((m) => m.column))) {
    const mine = mentions.filter((m) => m.column === column);
    if (respectively) {
      out.set(column, mine.map((m) => m.value));
      continue;
    }
    const before = (lo: number) => mine.filter((m) => m.end <= start && m.start >= lo).at(-1);
    const after = (hi: number) => mine.find((m) => m.start >= end && m.end <= hi);
    const pick = before(cs) ?? after(ce) ?? (paren && mine.find((m) => m.start >= paren[0] && m.end <= paren[1])) ?? before(0) ?? after(sentence.length);
    if (pick) out.set(column, [pick.value]);
  }
  return out;
}

/** Lower-case words of a column name ("avg_price" → avg, price; "orderCount" → order, count). */
function nameWords(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
}

function mentionsWord(text: string, word: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(word)}(?:s|es)?(?![\\p{L}\\p{N}])`, "iu").test(text);
}

/** True when the text names every word of the column ("avg price" for avg_price). */
export function namesColumn(text: string, column: string): boolean {
  const words = nameWords(column);
  return words.length > 0 && words.every((w) => mentionsWord(text, w));
}

/** True when the text shares a word with the column's name. */
export function touchesColumn(text: string, column: string): boolean {
  return nameWords(column).some((w) => mentionsWord(text, w));
}
