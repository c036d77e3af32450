// Reading a page for the answer agent: an SSRF-safe scrape under the process-wide fetch limit. The
// text is stored whole (quotes are checked against it); prompts show a trimmed part of it.
import { fetchSlot } from "../limits";
import { scrapeUrl, ScrapeError } from "../scrape";
import { KnowledgeSourceMissing, readKnowledgeSource } from "../knowledge/read-source";
import { parseKnowledgeSourceUrl } from "../knowledge/source-url";

export type ReadResult = { url: string; ok: true; title: string | null; text: string } | { url: string; ok: false; error: string };

/** At most this much of a page is stored: quotes past it cannot be checked, and prompts never show it. */
const MAX_STORED_CHARS = 200_000;

/** `collectionIds`: the run's collections, the only ones a knowledge-base source may be read from. */
/** `allowHost`: the run's host rules (bad_hostnames, only_hostnames), asked at every redirect hop too. */
export async function readPage(url: string, signal: AbortSignal, collectionIds: string[] = [], allowHost?: (hostname: string) => boolean): Promise<ReadResult> {
  try {
    // A knowledge-base passage is read from the database, never fetched.
    const page = parseKnowledgeSourceUrl(url)
      ? await readKnowledgeSource(url, collectionIds)
      : await scrapeUrl(url, { signal, allowHost, downloadSlot: fetchSlot(signal) });
    return { url, ok: true, title: page.title, text: page.text.slice(0, MAX_STORED_CHARS) };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { url, ok: false, error: error instanceof ScrapeError || error instanceof KnowledgeSourceMissing ? error.message : "The page could not be read" };
  }
}
