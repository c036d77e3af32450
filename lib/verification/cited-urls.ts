// After the report is written: every cited URL must be one that was actually analysed. A link to
// any other URL is repaired when it names an analysed one in other words (the resolver's near-misses:
// case of the host, www, a trailing slash, an added query string, the source's handle `[S3]`), else
// removed.
import { choicesOf, resolveChoice } from "../ai/resolve";
import { canonicalCitations } from "../report-citations";

export interface CitationCheck {
  markdown: string;
  removed: string[];
  repaired: string[];
}

/**
 * `handles`: whether "[S3]" names the third analysed URL (a tree report's sources are listed so); off where
 * handles name something else (a Deep Research write-up's snippets, resolved before).
 */
export function verifyCitations(markdown: string, analysedUrls: Iterable<string>, { handles = true }: { handles?: boolean } = {}): CitationCheck {
  const allowed = new Set(analysedUrls);
  // The handles the report writer was shown (renderSources: S1 is the first analysed URL).
  const choices = choicesOf("S", [...allowed], (url) => [url]);
  const removed: string[] = [];
  const repaired: string[] = [];
  const resolve = (url: string): string | null => {
    if (allowed.has(url)) return url;
    // Two analysed URLs that both match are ambiguous: the resolver repairs to neither.
    const match = resolveChoice(url.replace(/[).,;:]+$/, ""), choices, { only: false })?.value;
    if (match) {
      repaired.push(url);
      return match;
    }
    removed.push(url);
    return null;
  };

  // A citation by handle becomes a link to its source: every marker of a shown handle, however written
  // ("[s3]", "【S2】", "(S2)", "【2†source】", "[citation:2]", "[S2-S4]"), is "[S2, S3]" after canonicalCitations.
  let out = !handles
    ? markdown
    : canonicalCitations(markdown, "S", choices.length).replace(/\[(S\d+(?:, S\d+)*)\](?!\()/g, (whole, list: string) => {
        const urls = list.split(", ").map((h) => choices[Number(h.slice(1)) - 1]?.value);
        // A handle never shown ("[S9]") is left as written.
        return urls.every(Boolean) ? urls.map((url) => `[source](${url})`).join("") : whole;
      });
  out = out.replace(/(\(\s*)?\[([^\]\n]*)\]\((\S+?)(?:\s+"[^"]*")?\)(\s*\))?/g, (whole, open: string | undefined, text: string, url: string, close: string | undefined) => {
    if (!/^https?:\/\//i.test(url)) return whole;
    const target = resolve(url);
    if (target) return whole.replace(url, target);
    // A bare citation marker ("source", "3", "[1]") disappears with its link; real words stay as text.
    const isMarker = /^(source|sources|link|ref|\d+|\[\d+\])?$/i.test(text.trim());
    const kept = isMarker ? "" : text;
    return open && close ? (kept ? `(${kept})` : "") : `${open ?? ""}${kept}${close ?? ""}`;
  });
  out = out.replace(/<(https?:\/\/[^>\s]+)>/g, (whole, url: string) => {
    const target = resolve(url);
    return target ? `<${target}>` : "";
  });
  out = out.replace(/(^|[\s(])(https?:\/\/[^\s)<>\]]+)/g, (whole, lead: string, url: string) => {
    const target = resolve(url);
    return target ? `${lead}${target}` : lead;
  });
  // Tidy what removal leaves behind: empty list items, doubled spaces before punctuation.
  out = out
    .split("\n")
    .filter((line) => !/^\s*([-*]|\d+\.)\s*$/.test(line))
    .join("\n")
    .replace(/ +([.,;:])/g, "$1")
    .replace(/\( *\)/g, "");
  return { markdown: out, removed, repaired };
}

/** The URLs a report cites, in order of first appearance. */
export function citedUrls(markdown: string): string[] {
  const urls = new Set<string>();
  for (const m of markdown.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)) urls.add(m[1]);
  return [...urls];
}
