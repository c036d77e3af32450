// Figures as people write them, and whether one stands for a value: "480,000" for 480,450 (rounded
// to the digits written), "28.6 million" and "28.6M" for 28,612,345, "20.4%" for the share 0.20395
// or for 20.4, "3.2%" for -3.2 (a fall written as a size). A figure stands for a value when the value
// rounded to the figure's precision is the figure and it moves the value by at most 1% — or, when the
// precision is a magnitude written with zeros or a word ("480,000", "29 million") and the figure has
// two significant digits or more, by at most half that magnitude. "12" for 12.35 and "5%" for 4.5%
// are not the value; nor is a year written for a nearby one ("2020" stands only for 2020).
import type { Cell } from "./values";
import { languageOf } from "../ai/language";

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
  // As German, French, Spanish and Italian write them ("28,6 Millionen", "1,2 Mrd.", "3 milliards").
  tausend: 1e3, mio: 1e6, millionen: 1e6, millions: 1e6, millones: 1e6, "millón": 1e6, milioni: 1e6,
  mrd: 1e9, milliarde: 1e9, milliarden: 1e9, milliards: 1e9, miliardi: 1e9,
};

const MONTHS = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const MONTH_BEFORE = new RegExp(`(?:^|[^\\p{L}])(?:${MONTHS})\\.?\\s$`, "iu");
const MONTH_AFTER = new RegExp(`^\\s(?:${MONTHS})(?![\\p{L}])`, "iu");

// Not preceded by a letter, digit, dot, underscore or a letter's hyphen (Q3, ana-1-2, v2.1, x_2);
// a scale word or suffix ("28.6 million", "480k", "1.2bn", "3M") or a percent sign may follow; not
// followed by a letter or digit (2nd, 5km) or by more of a number.
// Continental Europe's forms too, as a report in German or French writes them: "4.079" and "1.234.567" grouped by
// dots, "20,4" with a decimal comma, "1.234,5" both (./figures.ts's readings keep each way a figure may be read).
const FIGURE = /(?<![\p{L}\p{N}_.]|[\p{L}\p{N}]-)([-−]?)(\d{1,3}(?:,\d{3})+|\d{1,3}(?:\.\d{3})+(?=,\d)|\d{1,3}(?:\.\d{3}){2,}|\d+)([.,]\d+)?(?:(\s?%|\s?per\s?cent\b|\s?percent\b|\s?Prozent\b)|(k|K|M|mn|mln|bn|B|tn)(?![\p{L}\p{N}_])|\s(thousand|million|billion|trillion|[Tt]ausend|[Mm]illionen|Million|millions|millones|millón|milioni|Mio|[Mm]illiarden|[Mm]illiarde|milliards|miliardi|Mrd)(?![\p{L}])\.?)?(?![\p{L}\p{N}_]|[.,]\d)/gu;

/**
 * The ways a figure's digits may be read, each as its whole part and its decimals ("." and digits). In English's
 * way "4,079" is 4079 and "4.079" is 4.079. With `decimalComma` (a text in a language that writes so: German,
 * French …) continental Europe's way first — "4.079" is 4079, "20,4" is 20.4, "4,079" is 4.079 — then English's
 * where it reads at all (models writing German often keep a result's figures as the table wrote them).
 */
function formsOf(digits: string, decimals: string, decimalComma: boolean): { plain: string; decimals: string }[] {
  const forms: { plain: string; decimals: string }[] = [];
  const dotted = digits.includes(".");
  const commaDecimals = decimals.startsWith(",");
  if (decimalComma) {
    if (dotted || commaDecimals) forms.push({ plain: digits.replace(/\./g, ""), decimals: decimals.replace(",", ".") });
    else if (/^\.\d{3}$/.test(decimals) && digits.length <= 3) forms.push({ plain: digits + decimals.slice(1), decimals: "" });
    else if (!decimals && /^\d{1,3},\d{3}$/.test(digits)) forms.push({ plain: digits.split(",")[0], decimals: `.${digits.split(",")[1]}` });
  }
  if (!dotted && !commaDecimals) forms.push({ plain: digits.replace(/,/g, ""), decimals });
  return forms;
}

/** Languages that write a decimal comma and group thousands by dots or spaces (lib/ai/language.ts codes). */
const DECIMAL_COMMA = new Set(["de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "pl", "cs", "tr", "id", "ro", "hu", "fi", "vi", "ru", "uk", "bg"]);

/** Whether a text is in a language that writes a decimal comma ("20,4 %"): its figures are read so first. */
export function writesDecimalComma(text: string): boolean {
  const code = languageOf(text)?.code;
  return code !== undefined && code !== null && DECIMAL_COMMA.has(code);
}

/**
 * The figures written in a text; bracketed references ([q2], [S1]) are not figures. `decimalComma`: the text
 * is in a language that writes one (writesDecimalComma), and its figures are read so first.
 */
export function numbersIn(text: string, { decimalComma = false }: { decimalComma?: boolean } = {}): Figure[] {
  const bare = text.replace(/\[[^\]\n]*\]/g, (m) => " ".repeat(m.length));
  const out: Figure[] = [];
  for (const m of bare.matchAll(FIGURE)) {
    const [whole, sign, digits, rawDecimals = "", percent, suffix, word] = m;
    const forms = formsOf(digits, rawDecimals, decimalComma);
    if (forms.length === 0) continue;
    const scale = SCALES[(word ?? suffix ?? "").toLowerCase()] ?? 1;
    /** 2023: four digits written with no separator, sign, scale or percent, which may be a year. */
    const isYear = (plain: string, decimals: string) => !percent && scale === 1 && !decimals && !/[.,]/.test(digits) && !sign && /^[12]\d{3}$/.test(plain);
    const readings: Reading[] = [];
    for (const { plain, decimals } of forms) {
      const base = Number(`${sign ? "-" : ""}${plain}${decimals}`);
      if (!Number.isFinite(base)) continue;
      const places = decimals ? decimals.length - 1 : 0;
      // Whole numbers written with trailing zeros are rounded to that magnitude ("480,000"), years excepted.
      const zeros = decimals || isYear(plain, decimals) || Number(plain) === 0 ? 0 : (/0+$/.exec(plain)?.[0].length ?? 0);
      const step = 10 ** (zeros - places) * scale;
      const coarse = zeros > 0 || scale > 1;
      readings.push({ value: base * scale, step, coarse });
      // A percentage is the figure itself (a column of percents) or a share (0.204 for "20.4%").
      if (percent) readings.push({ value: (base * scale) / 100, step: step / 100, coarse });
    }
    if (readings.length === 0) continue;
    const { plain, decimals } = forms[0];
    const value = readings[0].value;
    // A year has no separator: it reads one way only.
    const yearLike = isYear(plain, decimals);
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
