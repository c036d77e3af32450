// A researched answer cut to the client's terms: at its first stop sequence (OpenAI's `stop`), and,
// when the length limit cut it, back to the end of its last whole sentence, so that it never ends
// in a cut word and its citation markers ([^n], placed after whole sentences) stay whole.

/** The text before the first of the stop sequences, and whether one occurred. */
export function cutAtStop(text: string, stops: readonly string[] | undefined): { text: string; stopped: boolean } {
  let at = -1;
  for (const s of stops ?? []) {
    const i = s ? text.indexOf(s) : -1;
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at < 0 ? { text, stopped: false } : { text: text.slice(0, at), stopped: true };
}

/**
 * A sentence's end: its terminal punctuation with the closing quotes, brackets and markers after it —
 * before white space, the end, or a marker the cut left unfinished (Latin scripts); anywhere (CJK's
 * full-width stops, which no space follows) — or a line break.
 */
const SENTENCE_END = /[.!?]["'”’)\]]*(?:\[\^\d+\])*(?=\s|$|\[\^\d*$)|[。！？]["'”’)\]」』]*(?:\[\^\d+\])*|\n/g;

/**
 * A cut text up to the end of its last whole sentence. Without one, up to its last whole word, with
 * an ellipsis: better a short answer than a cut word.
 */
export function toSentenceEnd(text: string): string {
  const trimmed = text.trimEnd();
  let end = -1;
  for (const m of trimmed.matchAll(SENTENCE_END)) end = m.index + m[0].length;
  if (end === trimmed.length) return trimmed;
  if (end > 0 && trimmed.slice(0, end).trim()) return trimmed.slice(0, end).trimEnd();
  const word = trimmed.search(/\s+\S*$/);
  return word > 0 ? `${trimmed.slice(0, word).replace(/\[\^\d*$/, "").trimEnd()}…` : trimmed;
}
