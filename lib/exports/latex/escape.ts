// Text into LaTeX: special characters escaped, typography as LaTeX writes it, and anything the
// standard T1 fonts cannot show replaced (lib/exports/latin.ts), so that the paper always compiles.
import { winAnsi } from "../latin";

const SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
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

export function latex(text: string): string {
  let out = "";
  for (const ch of winAnsi(text.replace(/\s+/g, " "))) {
    const mapped = SPECIAL[ch];
    if (mapped !== undefined) out += mapped;
    // The rest of WinAnsi's extras (ƒ ˆ ˜ ‚ ‹ › …) have no T1 glyph under inputenc.
    else if ("ƒˆ˜‚‹›".includes(ch)) out += "?";
    else out += ch;
  }
  // "--" or "``" typed in the source would become ligatures: keep them as typed.
  return out;
}

/** A URL inside \url{} or \href{}: only %, # and braces need care there. */
export function latexUrl(url: string): string {
  return url.replace(/[%#{}\\]/g, (c) => `\\${c}`);
}
