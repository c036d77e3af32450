// The URLs the agent knows: merged from searches (counting how often each was found) and ranked
// for the prompt with a few per host, so one site cannot fill the list.
import type { FoundUrl } from "./types";
import type { SearchResult } from "../search";

export const PER_HOST = 2;

/** The form URLs are compared in: no fragment. Null for anything that is not http(s). */
export function normaliseUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}

/**
 * The http(s) URLs written in a text (the user's question or conversation), in the form compared:
 * punctuation that ends the sentence is not part of them, nor a closing bracket they do not open.
 */
export function urlsIn(text: string): string[] {
  const out: string[] = [];
  for (const [raw] of text.matchAll(/\bhttps?:\/\/[^\s<>"'`]+/gi)) {
    let candidate = raw.replace(/[.,;:!?]+$/, "");
    for (const [open, close] of ["()", "[]", "{}"]) {
      while (candidate.endsWith(close) && candidate.split(open).length <= candidate.split(close).length - 1) candidate = candidate.slice(0, -1).replace(/[.,;:!?]+$/, "");
    }
    const url = normaliseUrl(candidate);
    if (url && !out.includes(url)) out.push(url);
  }
  return out;
}

/** Adds search results; returns how many URLs were new. */
export function mergeResults(urls: FoundUrl[], results: SearchResult[]): number {
  let added = 0;
  for (const r of results) {
    const url = normaliseUrl(r.url);
    if (!url) continue;
    const known = urls.find((u) => u.url === url);
    if (known) known.hits++;
    else {
      urls.push({ url, title: r.title, snippet: r.snippet, hits: 1 });
      added++;
    }
  }
  return added;
}

const hostOf = (url: string) => new URL(url).host;

/**
 * Unvisited URLs, most often found first (then first found), at most `perHost` per host; URLs for
 * which `boost` is true (the client's boost_hostnames) come before all others.
 */
export function rankUrls(urls: FoundUrl[], visited: string[], { limit = 20, perHost = PER_HOST, boost = (_url: string): boolean => false } = {}): FoundUrl[] {
  const done = new Set(visited);
  const perHostCount = new Map<string, number>();
  const out: FoundUrl[] = [];
  const ordered = urls.map((u, i) => ({ u, i, b: boost(u.url) ? 1 : 0 })).sort((a, b) => b.b - a.b || b.u.hits - a.u.hits || a.i - b.i);
  for (const { u } of ordered) {
    if (done.has(u.url)) continue;
    const host = hostOf(u.url);
    const n = perHostCount.get(host) ?? 0;
    if (n >= perHost) continue;
    perHostCount.set(host, n + 1);
    out.push(u);
    if (out.length >= limit) break;
  }
  return out;
}
