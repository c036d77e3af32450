// Citation markers in the answer text, one style: a footnote marker `[^n]` after the sentence that
// n-th reference supports (n counts from 1 in the answer's reference list). The engine places them
// (withCitationMarkers); the OpenAI faces turn them into url_citation annotations whose
// start_index/end_index span that sentence (citationSpans).
import type { Reference } from "./types";

/** Appended to a forced (beast-mode) answer that no read page supports. */
export const NO_SOURCES_NOTE = "(No sources: this answer was forced from what the agent had gathered, and no page it read supports it.)";

const MARKER = /\[\^(\d+)\]/g;

interface Sentence {
  start: number;
  /** End of the sentence's text, before its markers. */
  textEnd: number;
  /** End including the markers that follow it. */
  end: number;
}

/** The answer's sentences with their offsets: a boundary is . ! or ? (then any markers) before a space, or a line break. */
export function sentencesOf(text: string): Sentence[] {
  const out: Sentence[] = [];
  const boundary = /([.!?]+)((?:\s*\[\^\d+\])*)(?=\s|$)|((?:\s*\[\^\d+\])*)(?=\n)/g;
  let start = 0;
  for (let m = boundary.exec(text); m; m = boundary.exec(text)) {
    if (m[0] === "" ) {
      // a line break with no marker before it
      if (text.slice(start, m.index).trim()) out.push(trimmed(text, start, m.index, m.index));
      start = m.index + 1;
      boundary.lastIndex = m.index + 1;
      continue;
    }
    const textEnd = m.index + (m[1]?.length ?? 0);
    const end = m.index + m[0].length;
    if (text.slice(start, end).trim()) out.push(trimmed(text, start, textEnd, end));
    start = end;
  }
  if (text.slice(start).trim()) out.push(trimmed(text, start, text.trimEnd().length, text.trimEnd().length));
  return out;
}

function trimmed(text: string, start: number, textEnd: number, end: number): Sentence {
  while (start < textEnd && /\s/.test(text[start])) start++;
  return { start, textEnd: Math.max(start, textEnd), end: Math.max(start, end) };
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []);

/** The index of the sentence sharing the most words with the quote (the first of equals). */
function bestSentence(text: string, sentences: Sentence[], quote: string): number {
  const q = words(quote);
  let best = 0;
  let bestScore = -1;
  sentences.forEach((s, i) => {
    const w = words(text.slice(s.start, s.textEnd));
    let score = 0;
    for (const x of w) if (q.has(x)) score++;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * The answer with a `[^n]` marker for every reference: markers the model wrote for an existing
 * reference stay, others (a number with no reference) go; a reference without one gets it after the
 * sentence that shares the most words with its quote.
 */
export function withCitationMarkers(answer: string, references: Pick<Reference, "exactQuote">[]): string {
  let text = answer.replace(MARKER, (m, n: string) => (Number(n) >= 1 && Number(n) <= references.length ? m : "")).replace(/[ \t]+$/gm, "");
  const marked = new Set([...text.matchAll(MARKER)].map((m) => Number(m[1])));
  if (references.length === 0 || !text.trim()) return text;
  const inserts = new Map<number, number[]>();
  const sentences = sentencesOf(text);
  references.forEach((r, i) => {
    if (marked.has(i + 1)) return;
    const s = bestSentence(text, sentences, r.exactQuote);
    inserts.set(s, [...(inserts.get(s) ?? []), i + 1]);
  });
  // From the last sentence back, so earlier offsets stay valid.
  for (const [s, ns] of [...inserts].sort((a, b) => b[0] - a[0])) {
    const at = sentences[s].end;
    text = text.slice(0, at) + ns.map((n) => `[^${n}]`).join("") + text.slice(at);
  }
  return text;
}

/** Each reference with the span of the sentence that cites it (the whole answer when none does). */
export function citationSpans({ answer, references }: { answer: string; references: Reference[] }) {
  const sentences = sentencesOf(answer);
  return references.map((r, i) => {
    const marker = `[^${i + 1}]`;
    const at = answer.indexOf(marker);
    const s = at < 0 ? undefined : sentences.find((x) => x.start <= at && at < x.end);
    return { ...r, start: s?.start ?? 0, end: s?.end ?? answer.length };
  });
}
