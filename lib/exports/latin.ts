// Text for typesetting that knows Latin-1 and typographic punctuation only (the PDF's standard
// fonts encode WinAnsi; LaTeX's T1 fonts with inputenc take the same): anything else is decomposed to
// its base letter when it has one, else shown as "?", rather than as garbage or a compile error.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
// Letters and signs with no decomposition to a Latin-1 base.
const PLAIN: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", ı: "i", Ħ: "H", ħ: "h", "−": "-", "≈": "~", "≤": "<=", "≥": ">=", "→": "->", "←": "<-", "✓": "v" };
/** Whether the standard fonts (WinAnsi) have the character as it is. */
export function inWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

export function winAnsi(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch) || ch === "\n") out += ch;
    else if (ch === "\t") out += " ";
    else if (PLAIN[ch]) out += PLAIN[ch];
    else {
      const base = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += base && [...base].every((c) => (c.codePointAt(0) ?? 0) <= 0xff) ? base : "?";
    }
  }
  return out;
}


// C0 and C1 controls (TeX reads ^^G as an invalid character, XML forbids most), non-characters, the BOM.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\ufffe\uffff]/g;

/** Text without what no typesetter should be given: control characters, and lone surrogates (as U+FFFD). */
export function clean(text: string): string {
  return text.toWellFormed().replace(CONTROL, "");
}

/** Hebrew, Arabic and the other right-to-left scripts' letters (and their presentation forms). */
export const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/** Whether text reads right to left: its first strongly directional letter is Hebrew or Arabic (say). */
export function readsRtl(text: string): boolean {
  for (const ch of text) {
    if (RTL.test(ch)) return true;
    if (/\p{L}/u.test(ch)) return false;
  }
  return false;
}
