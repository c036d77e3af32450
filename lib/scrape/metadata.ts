// Who wrote a page and when it was published, where the page states it: <meta name="author">,
// article:author / article:published_time (Open Graph), citation_* and Dublin Core tags, and JSON-LD
// (schema.org author and datePublished). For a paper's references (lib/exports/latex/bibtex.ts):
// nothing is guessed, a page that states neither gives null for both.
import { elementChildren, tagOf } from "./dom";

export interface PageMetadata {
  author: string | null;
  /** YYYY-MM-DD, or YYYY-MM / YYYY when the page gives no more. */
  published: string | null;
}

const AUTHOR_META = ["author", "citation_author", "dc.creator", "dcterms.creator", "article:author", "parsely-author", "sailthru.author"];
const DATE_META = ["article:published_time", "citation_publication_date", "citation_date", "dc.date", "dcterms.date", "dcterms.issued", "date", "pubdate", "publish-date", "og:published_time", "parsely-pub-date"];

const MAX_AUTHOR = 200;

/**
 * What the metadata is read from, in one walk of the document in document order: the same elements as
 * `meta`, `script[type="application/ld+json"]` (HTML's `type` compared without regard to case, as CSS
 * does) and the first `time[datetime]`: three whole-document selector scans that cost 1.3 s of the large
 * fixture web's extraction.
 */
function scan(doc: Document): { metas: Element[]; ldScripts: Element[]; time: Element | null } {
  const metas: Element[] = [];
  const ldScripts: Element[] = [];
  let time: Element | null = null;
  // From the root element: linkedom gives a document's doctype no next sibling.
  const stack: Element[] = doc.documentElement ? [doc.documentElement] : [];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const tag = tagOf(el);
    if (tag === "META") metas.push(el);
    else if (tag === "SCRIPT" && (el.getAttribute("type") ?? "").toLowerCase() === "application/ld+json") ldScripts.push(el);
    else if (tag === "TIME" && time === null && el.hasAttribute("datetime")) time = el;
    // Children pushed last first, so that they are visited in document order.
    stack.push(...elementChildren(el).reverse());
  }
  return { metas, ldScripts, time };
}

export function pageMetadata(doc: Document): PageMetadata {
  const { metas, ldScripts, time } = scan(doc);
  const meta = new Map<string, string[]>();
  for (const el of metas) {
    const key = (el.getAttribute("name") ?? el.getAttribute("property") ?? el.getAttribute("itemprop") ?? "").trim().toLowerCase();
    const content = el.getAttribute("content")?.trim();
    if (key && content) meta.set(key, [...(meta.get(key) ?? []), content]);
  }
  const ld = jsonLd(ldScripts);
  const authors = AUTHOR_META.map((k) => (meta.get(k) ?? []).filter((a) => !/^https?:\/\//i.test(a))).find((list) => list.length > 0) ?? ld.authors;
  const dates = [...DATE_META.flatMap((k) => meta.get(k) ?? []), ...ld.dates, ...(time ? [time.getAttribute("datetime") ?? ""] : [])];
  const author = cleanAuthors(authors);
  const published = dates.map(isoDate).find((d) => d !== null) ?? null;
  return { author, published };
}

function cleanAuthors(list: string[]): string | null {
  const names = [...new Set(list.map((a) => a.replace(/\s+/g, " ").trim()).filter((a) => a.length > 0 && a.length <= MAX_AUTHOR))];
  return names.length > 0 ? names.join(" and ").slice(0, MAX_AUTHOR * 2) : null;
}

/** A date as the page states it (ISO 8601, or a plain YYYY-MM-DD / YYYY/MM/DD), to YYYY-MM-DD; null otherwise. */
export function isoDate(raw: string): string | null {
  const m = /^\s*(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?(?:[T\s].*)?$/.exec(raw);
  if (!m) return null;
  const year = Number(m[1]);
  if (year < 1000 || year > 2999) return null;
  const month = m[2] ? Number(m[2]) : null;
  const day = m[3] ? Number(m[3]) : null;
  if (month !== null && (month < 1 || month > 12)) return null;
  if (day !== null && (day < 1 || day > 31)) return null;
  const pad = (n: number) => String(n).padStart(2, "0");
  return [String(year), month !== null ? pad(month) : null, day !== null ? pad(day) : null].filter(Boolean).join("-");
}

/** Authors and dates from the page's JSON-LD blocks (Article, NewsArticle, BlogPosting, …, or a @graph of them). */
function jsonLd(scripts: Element[]): { authors: string[]; dates: string[] } {
  const authors: string[] = [];
  const dates: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 4 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node.slice(0, 50)) visit(n, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    if (typeof o.datePublished === "string") dates.push(o.datePublished);
    for (const a of [o.author].flat()) {
      if (typeof a === "string") authors.push(a);
      else if (a && typeof a === "object" && typeof (a as { name?: unknown }).name === "string") authors.push((a as { name: string }).name);
    }
    if (o["@graph"]) visit(o["@graph"], depth + 1);
  };
  for (const script of scripts.slice(0, 10)) {
    try {
      visit(JSON.parse(script.textContent ?? ""), 0);
    } catch {
      // malformed JSON-LD is common; the meta tags may still say
    }
  }
  return { authors, dates };
}
