// Figures as people write them, and whether one stands for a value: "480,000" for 480,450 (rounded
// to the digits written), "28.6 million" and "28.6M" for 28,612,345, "20.4%" for the share 0.20395
// or for 20.4, "3.2%" for -3.2 (a fall written as a size). A figure stands for a value when the value
// rounded to the figure's precision is the figure and it moves the value by at most 1% — or, when the
// precision is a magnitude written with zeros or a word ("480,000", "29 million") and the figure has
// two significant digits or more, by at most half that magnitude. "12" for 12.35 and "5%" for 4.5%
// are not the value; nor is a year written for a nearby one ("2020" stands only for 2020).
import type { Cell } from "./values";

/** One way to read a figure: the value it stands for and the precision it is written to. */
export interface Reading {
  value: number;
  step: number;
  /** The precision is a magnitude (trailing zeros, thousand/million …), not the last digit written. */
  coarse: boolean;
}

export interface Figure {
  text: string;
  value: number;
  /** Where it is in the text it was read from. */
  index: number;
  end: number;
  readings: Reading[];
  /** 2023: a four-digit whole number that may be a year, matched exactly. */
  yearLike: boolean;
  /** "15 March", "March 15": a day of a month. */
  dayOfMonth: boolean;
  significant: number;
}

const SCALES: Record<string, number> = {
  k: 1e3, thousand: 1e3, m: 1e6, mn: 1e6, mln: 1e6, million: 1e6, bn: 1e9, b: 1e9, billion: 1e9, tn: 1e12, trillion: 1e12,
};

const MONTHS = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const MONTH_BEFORE = new RegExp(`(?:^|[^\\p{L}])(?:${MONTHS})\\.?\\s$`, "iu");
const MONTH_AFTER = new RegExp(`^\\s(?:${MONTHS})(?![\\p{L}])`, "iu");

// Not preceded by a letter, digit, dot, underscore or a letter's hyphen (Q3, ana-1-2, v2.1, x_2);
// a scale word or suffix ("28.6 million", "480k", "1.2bn", "3M") or a percent sign may follow; not
// followed by a letter or digit (2nd, 5km) or by more of a number.
const FIGURE = /(?<![\p{L}\p{N}_.]|[\p{L}\p{N}]-)([-−]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:(\s?%|\s?per\s?cent\b|\s?percent\b)|(k|K|M|mn|mln|bn|B|tn)(?![\p{L}\p{N}_])|\s(thousand|million|billion|trillion)\b)?(?![\p{L}\p{N}_]|[.,]\d)/gu;

/** The figures written in a text; bracketed references ([q2], [S1]) are not figures. */
export function numbersIn(text: string): Figure[] {
  const bare = text.replace(/\[[^\]\n]*\]/g, (m) => " ".repeat(m.length));
  const out: Figure[] = [];
  for (const m of bare.matchAll(FIGURE)) {
    const [whole, sign, digits, decimals = "", percent, suffix, word] = m;
    const plain = digits.replace(/,/g, "");
    const base = Number(`${sign ? "-" : ""}${plain}${decimals}`);
    if (!Number.isFinite(base)) continue;
    const scale = SCALES[(word ?? suffix ?? "").toLowerCase()] ?? 1;
    const places = decimals ? decimals.length - 1 : 0;
    const yearLike = !percent && scale === 1 && !decimals && !digits.includes(",") && !sign && /^[12]\d{3}$/.test(plain);
    // Whole numbers written with trailing zeros are rounded to that magnitude ("480,000"), years excepted.
    const zeros = decimals || yearLike || Number(plain) === 0 ? 0 : (/0+$/.exec(plain)?.[0].length ?? 0);
    const step = 10 ** (zeros - places) * scale;
    const coarse = zeros > 0 || scale > 1;
    const value = base * scale;
    const readings: Reading[] = [{ value, step, coarse }];
    // A percentage is the figure itself (a column of percents) or a share (0.204 for "20.4%").
    if (percent) readings.push({ value: value / 100, step: step / 100, coarse });
    const intDigits = plain.replace(/^0+/, "");
    const significant = (decimals ? intDigits + decimals.slice(1) : intDigits.replace(/0+$/, "")).replace(/^0+/, "").length;
    const index = m.index;
    const end = index + whole.length;
    const dayOfMonth = !decimals && scale === 1 && !percent && Number(plain) >= 1 && Number(plain) <= 31
      && (MONTH_BEFORE.test(bare.slice(Math.max(0, index - 12), index)) || MONTH_AFTER.test(bare.slice(end, end + 12)));
    out.push({ text: whole, value, index, end, readings, yearLike, dayOfMonth, significant });
  }
  return out;
}

/** True when the figure stands for `v` (either sign: "fell 3.2%" for -3.2). */
export function stands(figure: Figure, v: number): boolean {
  const target = Math.abs(v);
  return figure.readings.some((r) => {
    const d = Math.abs(target - Math.abs(r.value));
    if (d <= 1e-9 * Math.max(1, target)) return true;
    if (figure.yearLike) return false;
    if (d > (r.step / 2) * (1 + 1e-9)) return false;
    return d <= target * 0.01 || (r.coarse && figure.significant >= 2);
  });
}

/** ISO dates and months (2023-03-15, 2023-03, 2023-03-15T10:00) in a text: their years and days. */
export function datePartsIn(text: string): { years: number[]; days: number[] } {
  const years: number[] = [];
  const days: number[] = [];
  for (const m of text.matchAll(/(?<!\d)([12]\d{3})-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?(?!\d)/g)) {
    years.push(Number(m[1]));
    if (m[3]) days.push(Number(m[3]));
  }
  return { years, days };
}

/** The numeric values a cell holds: a number, or the figures and date years written in a text. */
export function cellValues(cell: Cell): number[] {
  if (typeof cell === "number") return [cell];
  if (typeof cell !== "string") return [];
  // A number stored as text (a 64-bit integer kept exact) is that number.
  if (/^[-+]?\d+(\.\d+)?$/.test(cell.trim())) return [Number(cell)];
  return [...numbersIn(cell).map((f) => f.value), ...datePartsIn(cell).years];
}
