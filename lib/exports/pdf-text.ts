// Text for the PDF, split where its font changes: what the standard fonts show (WinAnsi) stays in
// them; every other character goes to the first font of the server's stack (fonts.ts) that has it,
// and one that no font has becomes "?" and is recorded, so that the document can say so. A run of
// right-to-left text is kept whole (spaces and punctuation included) so that fontkit shapes it and
// lays it out right to left as one.
import { FONT_PACKAGES, fontFor, hasGlyph, type FontFace } from "./fonts";
import { clean, inWinAnsi, RTL, winAnsi } from "./latin";

export interface Segment {
  text: string;
  /** Null: the standard fonts. */
  face: FontFace | null;
  rtl: boolean;
}

const WORDLIKE = /[\p{L}\p{N}\p{M}]/u;

export function segments(text: string, stack: FontFace[], replaced: Set<string>): Segment[] {
  const out: Segment[] = [];
  const push = (ch: string, face: FontFace | null) => {
    const last = out.at(-1);
    if (last && last.face === face) last.text += ch;
    else out.push({ text: ch, face, rtl: false });
  };
  for (const ch of clean(text).replace(/\t/g, " ")) {
    const current = out.at(-1)?.face;
    if (current && !WORDLIKE.test(ch) && ch !== "\n" && hasGlyph(current, ch)) push(ch, current);
    else if (inWinAnsi(ch) || ch === "\n") push(ch, null);
    else {
      const face = fontFor(ch, stack);
      if (face) push(ch, face);
      else {
        const plain = winAnsi(ch);
        if (plain.includes("?")) replaced.add(ch);
        push(plain, null);
      }
    }
  }
  // A right-to-left run's outer spaces go to the standard font: laid out right to left they would
  // end up on the wrong side of it.
  return out.flatMap((s): Segment[] => {
    if (!s.face || !RTL.test(s.text)) return [s];
    const [, lead, core, trail] = /^(\s*)(.*?)(\s*)$/s.exec(s.text) ?? ["", "", s.text, ""];
    return [
      ...(lead ? [{ text: lead, face: null, rtl: false }] : []),
      { text: core, face: s.face, rtl: true },
      ...(trail ? [{ text: trail, face: null, rtl: false }] : []),
    ];
  });
}

/** The characters of a text that no font here shows (each becomes "?"). */
export function unshowable(text: string, stack: FontFace[]): Set<string> {
  const replaced = new Set<string>();
  segments(text, stack, replaced);
  return replaced;
}

/** The visible note on what became "?", or null when nothing did. */
export function replacedNote(replaced: Set<string>, fontsInstalled: boolean, keptBy: string): string | null {
  if (replaced.size === 0) return null;
  const examples = [...replaced].slice(0, 5).map((ch) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);
  const why = fontsInstalled ? "no font on this server has them" : `this server has no fonts beyond Latin (on Debian: apt-get install ${FONT_PACKAGES})`;
  return `Note: ${replaced.size} distinct character${replaced.size === 1 ? "" : "s"} (${examples.join(", ")}${replaced.size > 5 ? ", …" : ""}) ${replaced.size === 1 ? "is" : "are"} shown as "?": ${why}. ${keptBy}`;
}
