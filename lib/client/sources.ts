// Sources by URL: a page read by several queries is one source, with every query's findings.
import type { LiveItemView, ResearchStatus, SerpQueryView, WebsiteStatus, LiveWebsiteView } from "@/lib/types";
import { normalizeUrl } from "./format";

export interface SourceEntry {
  url: string;
  title: string | null;
  status: WebsiteStatus;
  items: LiveItemView[];
  /** Findings of every use (the items' count, known before their text is). */
  findings: number;
  /** Some items' text has not been fetched yet (an ended research's snapshot leaves it out). */
  textPending: boolean;
  uses: { website: LiveWebsiteView; query: SerpQueryView | undefined }[];
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

export function groupSources(websites: LiveWebsiteView[], queries: SerpQueryView[], research: ResearchStatus = "running"): SourceEntry[] {
  const qById = new Map(queries.map((q) => [q.query_id, q]));
  const byUrl = new Map<string, SourceEntry>();
  for (const raw of websites) {
    const w = { ...raw, status: shownWebsiteStatus(raw.status, research) };
    let e = byUrl.get(w.url);
    if (!e) {
      e = { url: w.url, title: w.title, status: w.status, items: [], findings: 0, textPending: false, uses: [], errors: [] };
      byUrl.set(w.url, e);
    }
    e.title ??= w.title;
    e.items.push(...(w.items ?? []));
    e.findings += w.item_count;
    if (w.items === null && w.item_count > 0) e.textPending = true;
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

/**
 * Extracted items per normalised URL, for citations in the report; `items` is null while some of
 * the text has not been fetched yet.
 */
export function itemsByUrl(websites: LiveWebsiteView[]): Map<string, { title: string | null; url: string; items: LiveItemView[] | null }> {
  const out = new Map<string, { title: string | null; url: string; items: LiveItemView[] | null }>();
  for (const w of websites) {
    const key = normalizeUrl(w.url);
    const e = out.get(key) ?? { title: w.title, url: w.url, items: [] };
    e.title ??= w.title;
    if (w.items === null) {
      if (w.item_count > 0) e.items = null;
    } else if (e.items) {
      for (const it of w.items) if (!e.items.some((x) => x.content === it.content)) e.items.push(it);
    }
    out.set(key, e);
  }
  return out;
}
