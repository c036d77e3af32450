// Sources by URL: a page read by several queries is one source, with every query's findings.
import type { ExtractedItemView, ResearchStatus, SerpQueryView, WebsiteStatus, WebsiteView } from "@/lib/types";
import { normalizeUrl } from "./format";

export interface SourceEntry {
  url: string;
  title: string | null;
  status: WebsiteStatus;
  items: ExtractedItemView[];
  uses: { website: WebsiteView; query: SerpQueryView | undefined }[];
  errors: string[];
}

const UNFINISHED = new Set<WebsiteStatus>(["pending", "scraping", "scraped"]);

/**
 * A page's status as shown: once the research is no longer running nothing is in progress, so a page
 * fetched (or waiting) but never analysed shows as `stopped`. (The server marks pages stopped too, but
 * leaves one that was fetched before the stop as `scraped`.)
 */
export function shownWebsiteStatus(status: WebsiteStatus, research: ResearchStatus): WebsiteStatus {
  return research !== "running" && UNFINISHED.has(status) ? "stopped" : status;
}

const RANK: Record<WebsiteStatus, number> = { stopped: 0, pending: 0, scraping: 1, scraped: 2, failed: 3, analyzed: 4 };

export function groupSources(websites: WebsiteView[], queries: SerpQueryView[], research: ResearchStatus = "running"): SourceEntry[] {
  const qById = new Map(queries.map((q) => [q.query_id, q]));
  const byUrl = new Map<string, SourceEntry>();
  for (const raw of websites) {
    const w = { ...raw, status: shownWebsiteStatus(raw.status, research) };
    let e = byUrl.get(w.url);
    if (!e) {
      e = { url: w.url, title: w.title, status: w.status, items: [], uses: [], errors: [] };
      byUrl.set(w.url, e);
    }
    e.title ??= w.title;
    e.items.push(...w.items);
    e.uses.push({ website: w, query: qById.get(w.query_id) });
    if (w.error_message && !e.errors.includes(w.error_message)) e.errors.push(w.error_message);
  }
  for (const e of byUrl.values()) e.status = combinedStatus(e.uses.map((u) => u.website.status));
  return [...byUrl.values()];
}

/** One analysed use makes a source useful; it has failed only if every use failed. */
function combinedStatus(statuses: WebsiteStatus[]): WebsiteStatus {
  const live = statuses.filter((s) => s !== "failed");
  if (live.length === 0) return "failed";
  return live.reduce((best, s) => (RANK[s] > RANK[best] ? s : best), live[0]);
}

/** Extracted items per normalised URL, for citations in the report. */
export function itemsByUrl(websites: WebsiteView[]): Map<string, { title: string | null; url: string; items: ExtractedItemView[] }> {
  const out = new Map<string, { title: string | null; url: string; items: ExtractedItemView[] }>();
  for (const w of websites) {
    const key = normalizeUrl(w.url);
    const e = out.get(key) ?? { title: w.title, url: w.url, items: [] };
    e.title ??= w.title;
    for (const it of w.items) if (!e.items.some((x) => x.content === it.content)) e.items.push(it);
    out.set(key, e);
  }
  return out;
}
