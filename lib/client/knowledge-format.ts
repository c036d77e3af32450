// What the Documents page shows: sizes, types, dates, a passage's place (page or section), and a
// search hit's snippet with the query's words marked.

const TYPE_LABELS: Record<string, string> = { pdf: "PDF", markdown: "Markdown", text: "Text", html: "HTML", docx: "DOCX" };

export function typeLabel(format: string): string {
  return TYPE_LABELS[format] ?? (format ? format.toUpperCase() : "—");
}

/** 1,234 B / 12.3 KB / 4.5 MB (decimal units, as file managers show them). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let n = bytes / 1000;
  let unit = 0;
  while (n >= 1000 && unit < units.length - 1) {
    n /= 1000;
    unit++;
  }
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[unit]}`;
}

/** "6 Dec 2026", in UTC so that the server's HTML and the browser's render agree. */
export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

export function placeLabel(hit: { page: number | null; section: string | null }): string {
  if (hit.page !== null) return `Page ${hit.page}`;
  return hit.section ?? "";
}

export interface Segment {
  text: string;
  match: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The query's words worth marking: letters and digits, two or more, longest first (so "mosses" wins over "moss"). */
export function queryWords(query: string): string[] {
  const words = new Set((query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => !STOP.has(w)));
  return [...words].sort((a, b) => b.length - a.length);
}
const STOP = new Set(["the", "and", "of", "in", "on", "to", "a", "an", "is", "are", "for", "with", "at", "by", "or"]);

/**
 * At most `max` characters of `text` around the first word of the query it holds, cut at spaces,
 * with every occurrence of the query's words (and words they begin: "glow" marks "glowed") marked.
 */
export function snippet(text: string, query: string, max = 320): Segment[] {
  const words = queryWords(query);
  const pattern = words.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escape).join("|")})[\\p{L}\\p{N}]*`, "giu") : null;
  let body = text.replace(/\s+/g, " ").trim();
  if (body.length > max) {
    const first = pattern ? body.search(pattern) : -1;
    let start = first > max / 3 ? body.lastIndexOf(" ", first - Math.floor(max / 3)) + 1 : 0;
    if (start < 0) start = 0;
    let end = Math.min(body.length, start + max);
    if (end < body.length) end = Math.max(start + 1, body.lastIndexOf(" ", end));
    body = `${start > 0 ? "…" : ""}${body.slice(start, end).trim()}${end < body.length ? "…" : ""}`;
  }
  if (!pattern) return [{ text: body, match: false }];
  const out: Segment[] = [];
  let at = 0;
  for (const m of body.matchAll(pattern)) {
    if (m.index > at) out.push({ text: body.slice(at, m.index), match: false });
    out.push({ text: m[0], match: true });
    at = m.index + m[0].length;
  }
  if (at < body.length) out.push({ text: body.slice(at), match: false });
  return out;
}
