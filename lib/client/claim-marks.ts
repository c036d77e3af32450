// Where a verified claim is in the rendered report: the claim's sentence is matched against the
// article's text with whitespace (and a table row's bars between its cells) ignored and the citation markers ("[3]") left out, since the
// verification stores the sentence without its citations. Pure over a list of text pieces, so the
// DOM side (components/report-verification.tsx) only maps the result back to ranges.

export interface TextPiece {
  text: string;
  /** A citation marker's text is not part of any sentence. */
  skip: boolean;
}

export interface PieceOffset {
  piece: number;
  offset: number;
}

// A table row's claim reads "cell | cell": the page shows the cells apart, without the bars.
const compact = (text: string) => text.normalize("NFKC").replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[\s|]+/g, "");

/** The first and last character of `sentence` in the pieces (inclusive), or null when it is not there. */
export function locateSentence(pieces: TextPiece[], sentence: string): { start: PieceOffset; end: PieceOffset } | null {
  const chars: PieceOffset[] = [];
  let joined = "";
  pieces.forEach((p, piece) => {
    if (p.skip) return;
    for (let offset = 0; offset < p.text.length; offset++) {
      const ch = compact(p.text[offset]);
      if (!ch) continue;
      joined += ch;
      chars.push({ piece, offset });
    }
  });
  // Without its citations a sentence reads "fact." where the page shows "fact [1]." — the space
  // before the full stop is gone with whitespace, so the compact forms match.
  const wanted = compact(sentence);
  if (wanted.length < 8) return null;
  const at = joined.indexOf(wanted);
  if (at === -1) return null;
  return { start: chars[at], end: chars[at + wanted.length - 1] };
}
