// Sections → chunks of about CHUNK_CHARS characters, cut at paragraph, then sentence, then word
// boundaries. A chunk never spans two pages or sections, so each keeps the one place it cites.
import type { ParsedSection } from "./sections";

export interface Chunk {
  ordinal: number;
  page: number | null;
  section: string | null;
  text: string;
}

// ~200 words: long enough to hold a claim with its context, short enough that a search hit is precise
// and several fit an engine's prompt.
export const CHUNK_CHARS = 1_200;

/** Pieces of `text` no longer than `max`, cut at the largest boundary that fits. */
function pieces(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const sentences = text.split(/(?<=[.!?])\s+/);
  if (sentences.length > 1) return sentences.flatMap((s) => pieces(s, max));
  const out: string[] = [];
  let line = "";
  for (let word of text.split(/\s+/)) {
    // A "word" longer than a chunk (a URL, a base64 blob) is cut where it must be.
    while (word.length > max) {
      if (line) out.push(line);
      line = "";
      out.push(word.slice(0, max));
      word = word.slice(max);
    }
    if (!word) continue;
    if (line && line.length + 1 + word.length > max) {
      out.push(line);
      line = "";
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

export function chunkSections(sections: ParsedSection[], size = CHUNK_CHARS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const { page, section, text } of sections) {
    let current = "";
    const emit = () => {
      if (current.trim()) chunks.push({ ordinal: chunks.length, page, section, text: current.trim() });
      current = "";
    };
    for (const paragraph of text.split(/\n\s*\n/)) {
      // Pieces of one paragraph are rejoined with a space, paragraphs with a blank line.
      pieces(paragraph.trim(), size).forEach((piece, i) => {
        const gap = i === 0 ? "\n\n" : " ";
        if (current && current.length + gap.length + piece.length > size) emit();
        current = current ? `${current}${gap}${piece}` : piece;
      });
    }
    emit();
  }
  return chunks;
}
