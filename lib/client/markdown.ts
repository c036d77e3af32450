// Headings of a Markdown report for its table of contents, with the ids the renderer gives them.

export interface TocEntry {
  depth: number;
  text: string;
  id: string;
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[`*_~[\]()]/g, "")
      .replace(/[^\p{L}\p{N}\s-]/gu, "")
      .trim()
      .replace(/\s+/g, "-")
      .slice(0, 80) || "section"
  );
}

/** Gives repeated slugs a numeric suffix, in document order (as the renderer does). */
export function createSlugger() {
  const seen = new Map<string, number>();
  return (text: string) => {
    const base = slugify(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/** Strips inline Markdown (links, emphasis, code) from a heading line. */
export function plainHeading(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_~]/g, "")
    .replace(/\s+#+\s*$/, "")
    .trim();
}

export function extractToc(markdown: string): TocEntry[] {
  const slug = createSlugger();
  const out: TocEntry[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^(#{1,4})\s+(.+)$/.exec(line);
    if (!m) continue;
    const text = plainHeading(m[2]);
    out.push({ depth: m[1].length, text, id: slug(text) });
  }
  return out;
}
