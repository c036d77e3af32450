// Text for typesetting that knows Latin-1 and typographic punctuation only (the PDF's standard
// fonts encode WinAnsi; LaTeX's T1 fonts with inputenc take the same): anything else is decomposed to
// its base letter when it has one, else shown as "?", rather than as garbage or a compile error.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
// Letters and signs with no decomposition to a Latin-1 base.
const PLAIN: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", ı: "i", Ħ: "H", ħ: "h", "−": "-", "≈": "~", "≤": "<=", "≥": ">=", "→": "->", "←": "<-", "✓": "v" };
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

