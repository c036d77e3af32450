// After the report is written: every cited URL must be one that was actually analysed. A link to
// any other URL is repaired when it is an obvious variant of an analysed one, else removed.

function variantKey(raw: string): string | null {
  try {
    const url = new URL(raw.trim().replace(/[).,;:]+$/, ""));
    url.hash = "";
    const host = url.hostname.replace(/^www\./, "");
    const path = url.pathname.replace(/\/+$/, "");
    return `${host}${path}${url.search}`;
  } catch {
    return null;
  }
}

export interface CitationCheck {
  markdown: string;
  removed: string[];
  repaired: string[];
}

export function verifyCitations(markdown: string, analysedUrls: Iterable<string>): CitationCheck {
  const allowed = new Set(analysedUrls);
  const byKey = new Map<string, string | null>();
  for (const url of allowed) {
    const key = variantKey(url);
    if (!key) continue;
    // Two analysed URLs with the same key are ambiguous: do not repair to either.
    byKey.set(key, byKey.has(key) ? null : url);
  }
  const removed: string[] = [];
  const repaired: string[] = [];
  const resolve = (url: string): string | null => {
    if (allowed.has(url)) return url;
    const key = variantKey(url);
    const match = key ? byKey.get(key) : undefined;
    if (match) {
      repaired.push(url);
      return match;
    }
    removed.push(url);
    return null;
  };

  let out = markdown.replace(/(\(\s*)?\[([^\]\n]*)\]\((\S+?)(?:\s+"[^"]*")?\)(\s*\))?/g, (whole, open: string | undefined, text: string, url: string, close: string | undefined) => {
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
