// BibTeX entries for the sources a report cites: @misc with the page's title, its site, URL and
// access date, and its author and date where the page states them. Keys are stable and unique
// (host + first title word + number), so that every \cite in the paper resolves.
import { latex } from "./escape";

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

/** A BibTeX key per source number: letters and digits only, unique. */
export function bibKeys(sources: BibSource[]): Map<number, string> {
  const keys = new Map<number, string>();
  for (const s of sources) {
    const host = siteOf(s.url).split(".").filter((p) => p.length > 2)[0] ?? "source";
    const word = s.title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9 ]/g, "").split(" ").find((w) => w.length > 3) ?? "page";
    keys.set(s.n, `${host.replace(/[^a-z0-9]/gi, "").toLowerCase() || "source"}${word}${s.n}`);
  }
  return keys;
}

// Braces keep BibTeX from changing the title's case.
const field = (name: string, value: string) => `  ${name} = {${value}}`;

export function bibtex(sources: BibSource[]): string {
  const keys = bibKeys(sources);
  return sources
    .map((s) => {
      const year = s.published?.slice(0, 4);
      const fields = [
        field("title", `{${latex(s.title)}}`),
        s.author ? field("author", latex(s.author)) : null,
        field("howpublished", latex(siteOf(s.url))),
        year && /^\d{4}$/.test(year) ? field("year", year) : null,
        s.published && s.published.length >= 10 ? field("date", s.published.slice(0, 10)) : null,
        // plainnat prints url with \url, which takes the URL as it is.
        field("url", s.url.replace(/[{}]/g, "")),
        s.accessed ? field("urldate", s.accessed) : null,
        s.accessed ? field("note", `Accessed ${s.accessed}`) : null,
      ].filter(Boolean);
      return `@misc{${keys.get(s.n)},\n${fields.join(",\n")}\n}`;
    })
    .join("\n\n")
    .concat("\n");
}
