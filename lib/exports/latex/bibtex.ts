// BibTeX entries for the sources a report cites: @misc with the page's title, its site, URL and
// access date, and its author and date where the page states them. Keys are stable and unique, so
// that every \cite in the paper resolves. Every field is
// escaped so that BibTeX and LaTeX both read it: braces balanced, URLs percent-encoded.
import { isInternalSource } from "../blocks";
import { latex, safeUrl, typeset, type Typeset } from "./escape";

export interface BibSource {
  n: number;
  url: string;
  title: string;
  /** yyyy-mm-dd: when the page was fetched. */
  accessed: string | null;
  author?: string | null;
  /** yyyy-mm-dd or yyyy, as the page states it. */
  published?: string | null;
}

export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** Three letters per number (1 → aaa, 2 → aab, …): unique for the first 17,576 sources. */
const tag = (n: number) => [676, 26, 1].map((d) => String.fromCharCode(97 + (Math.floor((n - 1) / d) % 26))).join("");

/**
 * A BibTeX key per source number: a tag of its number, the site and a title word (aab:energybattery).
 * natbib labels an entry without author by its key's first three letters and tells equal labels apart
 * with a, b, … and, past z, a "{" that breaks the bibliography: the tag keeps those letters unique.
 */
export function bibKeys(sources: BibSource[]): Map<number, string> {
  const keys = new Map<number, string>();
  for (const s of sources) {
    const host = siteOf(s.url).split(".").filter((p) => p.length > 2)[0] ?? "source";
    const word = s.title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9 ]/g, "").split(" ").find((w) => w.length > 3) ?? "page";
    keys.set(s.n, `${tag(s.n)}:${host.replace(/[^a-z0-9]/gi, "").toLowerCase() || "source"}${word}`);
  }
  return keys;
}

/** Authors named by more than this many sources of one year are left to the note (natbib's labels, above). */
const SAME_LABEL_MAX = 25;

// Braces keep BibTeX from changing the title's case.
const field = (name: string, value: string) => `  ${name} = {${value}}`;
/** BibTeX's buffers are finite: a page title of thousands of characters would overflow them. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, text.lastIndexOf(" ", max) > max / 2 ? text.lastIndexOf(" ", max) : max)}\u2026` : text);

export function bibtex(sources: BibSource[], t: Typeset = typeset(false)): string {
  const keys = bibKeys(sources);
  const labelOf = (s: BibSource) => `${s.author?.trim().toLowerCase()}|${s.published?.slice(0, 4) ?? ""}`;
  const sameLabel = new Map<string, number>();
  for (const s of sources) if (s.author?.trim()) sameLabel.set(labelOf(s), (sameLabel.get(labelOf(s)) ?? 0) + 1);
  return sources
    .map((s) => {
      const year = s.published?.slice(0, 4);
      const url = safeUrl(s.url);
      const author = s.author?.trim() ? latex(cut(s.author, 200), t) : "";
      const asAuthor = author && (sameLabel.get(labelOf(s)) ?? 0) <= SAME_LABEL_MAX;
      const fields = [
        field("title", `{${latex(cut(s.title, 400), t) || "Untitled"}}`),
        asAuthor ? field("author", author) : null,
        isInternalSource(s.url) ? null : field("howpublished", latex(siteOf(s.url), t)),
        year && /^\d{4}$/.test(year) ? field("year", year) : null,
        s.published && /^\d{4}-\d{2}-\d{2}/.test(s.published) ? field("date", s.published.slice(0, 10)) : null,
        // unsrtnat prints url with \url, which reads it verbatim; safeUrl leaves no brace, backslash or ^.
        url ? field("url", url.slice(0, 2000)) : null,
        s.accessed ? field("urldate", s.accessed) : null,
        s.accessed || (author && !asAuthor) ? field("note", [author && !asAuthor ? `By ${author}` : "", s.accessed ? `Accessed ${s.accessed}` : ""].filter(Boolean).join(". ")) : null,
      ].filter(Boolean);
      return `@misc{${keys.get(s.n)},\n${fields.join(",\n")}\n}`;
    })
    .join("\n\n")
    .concat("\n");
}
