// Text into LaTeX, so that any text a report holds compiles: special characters escaped,
// typography as LaTeX writes it, control characters dropped, long unbroken strings given break
// points. Under a Unicode engine (LuaLaTeX + fontspec, compile.ts) every script is kept, right-to-left
// runs set right to left and Chinese or Japanese given break points between characters; under
// pdflatex anything its T1 fonts cannot show becomes "?" (lib/exports/latin.ts) and is recorded, so
// that the paper can say so.
import { clean, readsRtl, RTL, winAnsi } from "../latin";
import { isInternalSource } from "../blocks";

export { readsRtl };

/** How text is typeset: for which engine, and what had to be replaced. */
export interface Typeset {
  unicode: boolean;
  /** The paragraph's direction (Unicode engine): runs of the other direction are wrapped. */
  rtl?: boolean;
  /** Characters shown as "?": pdflatex's fonts lack them, or (Unicode engine) no font has them. */
  replaced: Set<string>;
  /** Unicode engine: whether a font will show the character (fonts.ts); without it, every one is assumed shown. */
  covers?: (ch: string) => boolean;
}

export const typeset = (unicode: boolean, covers?: (ch: string) => boolean): Typeset => ({ unicode, replaced: new Set(), covers });

const SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  // Not "\{": BibTeX counts braces without regard to backslashes, and an unbalanced one breaks the .bib.
  "{": "\\textbraceleft{}",
  "}": "\\textbraceright{}",
  $: "\\$",
  "&": "\\&",
  "#": "\\#",
  "%": "\\%",
  _: "\\_",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
  "‘": "`",
  "’": "'",
  "“": "``",
  "”": "''",
  "„": ",,",
  "–": "--",
  "—": "---",
  "…": "\\ldots{}",
  "€": "\\texteuro{}",
  "•": "\\textbullet{}",
  "‰": "\\textperthousand{}",
  "™": "\\texttrademark{}",
  "†": "\\dag{}",
  "‡": "\\ddag{}",
  "\u00a0": "~",
};

const LTR_STRONG = /[\p{L}]/u;
const CJK = /[\u2e80-\u2fdf\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\u{20000}-\u{3134f}]/u;
/** A run of non-space characters this long gets break points (hashes, URLs as text, identifiers). */
const LONG_RUN = 24;
// Break points: in a long string every few characters (\allowbreak); between CJK characters
// \quarrybreak (preamble.ts), a glue that stretches a little, so that lines of them justify.
const BREAK_AFTER = new Set("/-_.?&=,;:@");

function escapeChar(ch: string, t: Typeset): string {
  if (!t.unicode) {
    const plain = winAnsi(ch);
    // The rest of WinAnsi's extras (ƒ ˆ ˜ ‚ ‹ ›) have no T1 glyph under inputenc.
    if ((plain.includes("?") && ch !== "?") || "ƒˆ˜‚‹›".includes(ch)) {
      t.replaced.add(ch);
      return "?";
    }
    return [...plain].map((c) => SPECIAL[c] ?? c).join("");
  }
  if (SPECIAL[ch] !== undefined) return SPECIAL[ch];
  if (t.covers && ch !== " " && !t.covers(ch)) {
    t.replaced.add(ch);
    return "?";
  }
  return ch;
}

/** Splits text into runs of one direction: RTL letters with what lies between them, and the rest. */
function directionRuns(chars: string[]): { rtl: boolean; chars: string[] }[] {
  const runs: { rtl: boolean; chars: string[] }[] = [];
  let pending: string[] = [];
  for (const ch of chars) {
    const rtl = RTL.test(ch) ? true : LTR_STRONG.test(ch) ? false : null;
    if (rtl === null) {
      pending.push(ch);
      continue;
    }
    const last = runs.at(-1);
    if (last && last.rtl === rtl) last.chars.push(...pending, ch);
    else {
      // Spaces and punctuation between runs of two directions stay with the earlier run.
      if (last) last.chars.push(...pending);
      runs.push({ rtl, chars: last ? [ch] : [...pending, ch] });
    }
    pending = [];
  }
  if (pending.length) {
    const last = runs.at(-1);
    if (last) last.chars.push(...pending);
    else runs.push({ rtl: false, chars: pending });
  }
  return runs;
}

function escapeRun(chars: string[], t: Typeset): string {
  let out = "";
  let run = 0;
  // The length of the space-free run each character is in.
  const lengths: number[] = [];
  for (let i = 0; i < chars.length; ) {
    let end = i;
    while (end < chars.length && chars[end] !== " ") end++;
    for (let k = i; k <= Math.min(end, chars.length - 1); k++) lengths[k] = end - i;
    i = end + 1;
  }
  const longRun = (i: number) => lengths[i] >= LONG_RUN;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    out += escapeChar(ch, t);
    run = ch === " " ? 0 : run + 1;
    if (ch === " " || i === chars.length - 1 || chars[i + 1] === " ") continue;
    if (t.unicode && CJK.test(ch)) out += "\\quarrybreak{}";
    else if (run >= 6 || BREAK_AFTER.has(ch)) {
      if (longRun(i)) {
        out += "\\allowbreak{}";
        run = 0;
      }
    }
  }
  return out;
}

/** LaTeX for plain text (white space collapsed). */
export function latex(text: string, t: Typeset = typeset(false)): string {
  const chars = [...clean(text).replace(/\s+/g, " ")];
  if (!t.unicode) return escapeRun(chars, t);
  // Runs of the other direction than the paragraph's are set in theirs (LuaTeX's \textdir); digits
  // inside a right-to-left run stay left to right.
  return directionRuns(chars)
    .map(({ rtl, chars: run }) => {
      const text = escapeRun(run, t);
      const inner = rtl ? text.replace(/\d[\d.,]*\d|\d/g, (d) => `{\\textdir TLT ${d}}`) : text;
      if (rtl === (t.rtl ?? false)) return inner;
      // Leading and trailing spaces stay outside, so that words keep their spacing.
      const [, lead, body, trail] = /^( ?)(.*?)( ?)$/s.exec(inner) ?? ["", "", inner, ""];
      return `${lead}{\\textdir ${rtl ? "TRT" : "TLT"} ${body}}${trail}`;
    })
    .join("");
}

/**
 * A link target for \href or a .bib url field, or null when it must not be one: only http(s)
 * links are kept as targets. Anything outside a URL's own characters is percent-encoded (a `^^5c`
 * would otherwise be read by TeX as a backslash); % and # are escaped for \href's argument.
 */
export function safeUrl(url: string): string | null {
  if (!/^https?:\/\//i.test(url.trim()) || isInternalSource(url)) return null;
  const encoded = [...clean(url.trim())]
    .map((ch) => (/[A-Za-z0-9\-._~:/?@!$&'()*+,;=%#[\]]/.test(ch) ? ch : [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")))
    .join("");
  // A lone % not starting an escape would make the URL invalid: it is encoded too.
  return encoded.replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
}

/** A URL inside \href{}, where % and # need a backslash; null when it is not an http(s) link. */
export function latexUrl(url: string): string | null {
  const safe = safeUrl(url);
  return safe === null ? null : safe.replace(/[%#]/g, (c) => `\\${c}`);
}

/** Verbatim code: controls dropped, lines wrapped at `width` characters, and (pdflatex) non-Latin replaced. */
export function verbatim(text: string, t: Typeset, width = 88): string {
  const lines = clean(text.replace(/\t/g, "    ")).split("\n");
  const wrapped = lines.flatMap((line) => {
    const chars = [...line].map((ch) => escapeVerbatimChar(ch, t));
    const out: string[] = [];
    for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(""));
    return out.length ? out : [""];
  });
  // \end{verbatim} inside the code would end the environment early.
  return wrapped.join("\n").replace(/\\end\s*\{verbatim\}/g, "\\end {verbatim}");
}

function escapeVerbatimChar(ch: string, t: Typeset): string {
  if (t.unicode) {
    if (!t.covers || t.covers(ch)) return ch;
    t.replaced.add(ch);
    return "?";
  }
  const plain = winAnsi(ch);
  if ((plain.includes("?") && ch !== "?") || "ƒˆ˜‚‹›".includes(ch)) {
    t.replaced.add(ch);
    return "?";
  }
  return plain;
}
