// Scraping: fetch one public web page or PDF safely and return its readable text. Pure I/O, no database.
import { getEnv } from "@/lib/env";
import { storable } from "@/lib/validation/text";
import { checkDeclaredType, decodeBody, detectKind, parseContentType } from "./content";
import { formatSeconds, ScrapeError } from "./errors";
import { fetchFollowing, type FetchedBody } from "./fetch";
import { extractInPool, warmExtractPool } from "./extract-pool";
import { assertHttpUrl, resolveTarget, type LookupFn } from "./ssrf";

export { ScrapeError, type ScrapeFailure } from "./errors";
export { extractHtml } from "./html";
export type { LookupFn, ResolvedAddress } from "./ssrf";

export interface ScrapedPage {
  /** The URL asked for, normalised. */
  url: string;
  /** The URL the content came from, after redirects. */
  finalUrl: string;
  title: string | null;
  text: string;
  contentType: "html" | "text" | "pdf";
  /** Size of the body received, after decompression. */
  bytes: number;
  /** The page's author(s) and publication date where its HTML states them (lib/scrape/metadata.ts). */
  author?: string | null;
  published?: string | null;
}

export interface ScrapeOptions {
  /** Total time for DNS, every redirect hop, headers, body and extraction (from the download's start). Default SCRAPE_TIMEOUT_MS. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Allow loopback, private, link-local and other non-public addresses. Default SCRAPE_ALLOW_PRIVATE. */
  allowPrivate?: boolean;
  userAgent?: string;
  /** Cancels the scrape; the promise then rejects with the signal's reason, not a ScrapeError. */
  signal?: AbortSignal;
  /** Injectable DNS, for tests. */
  lookup?: LookupFn;
  /** A caller's own host rule, asked at every hop (redirects too): false refuses the host before any connection. */
  allowHost?: (hostname: string) => boolean;
  /**
   * Runs the download (every hop, the headers and the body) in the caller's slot of a concurrency
   * limit (SCRAPE_CONCURRENCY's): the extraction runs after it has left the slot, so the next page's
   * download does not wait for this one's extraction (the pool's worker processes bound those).
   */
  downloadSlot?: <T>(download: () => Promise<T>) => Promise<T>;
}

const MAX_URL_LENGTH = 8192;

function parseUrl(input: string): URL {
  if (input.length > MAX_URL_LENGTH) throw new ScrapeError("invalid_url", "The URL is too long");
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ScrapeError("invalid_url", "Not a valid URL");
  }
  assertHttpUrl(url);
  return url;
}

async function toPage(url: URL, fetched: FetchedBody, signal: AbortSignal): Promise<ScrapedPage> {
  const contentType = detectKind(fetched.contentType, fetched.body);
  let title: string | null = null;
  let text: string;
  let metadata: { author: string | null; published: string | null } = { author: null, published: null };
  if (contentType === "pdf") {
    // A copy: the bytes are moved to the worker, and the fetched Buffer may share its memory.
    ({ title, text } = await extractInPool({ kind: "pdf", body: new Uint8Array(fetched.body) }, signal));
  } else if (contentType === "html") {
    // The bytes go to the worker (a copy, moved: the fetched Buffer may share its memory) and are
    // decoded there: the decoding and a structured clone of the page's text stay off the event loop.
    const body = new Uint8Array(fetched.body);
    const extracted = await extractInPool({ kind: "html", body, charset: parseContentType(fetched.contentType).charset, url: fetched.finalUrl }, signal);
    ({ title, text } = extracted);
    metadata = { author: extracted.author, published: extracted.published };
  } else {
    const decoded = decodeBody(fetched.body, contentType, parseContentType(fetched.contentType).charset);
    text = decoded.replace(/\r\n?/g, "\n").trim(); // plain text and markdown stay as written
  }
  if (text === "") {
    throw new ScrapeError("empty", contentType === "pdf" ? "The PDF has no extractable text" : "The page has no readable text");
  }
  // A hostile page can yield NUL characters (PostgreSQL refuses them) and lone surrogates (SQLite
  // refuses them), from PDF strings or numeric character references: made storable here, once.
  return {
    url: url.href, finalUrl: fetched.finalUrl, title: title === null ? null : storable(title), text: storable(text), contentType, bytes: fetched.body.length,
    author: metadata.author === null ? null : storable(metadata.author), published: metadata.published,
  };
}

/**
 * Fetches an http(s) URL and extracts its readable text. Throws ScrapeError with a stable reason and
 * a user-readable message; non-public addresses are refused before any connection unless allowed.
 */
export async function scrapeUrl(url: string, options: ScrapeOptions = {}): Promise<ScrapedPage> {
  const env = getEnv();
  const timeoutMs = options.timeoutMs ?? env.SCRAPE_TIMEOUT_MS;
  const allowPrivate = options.allowPrivate ?? env.SCRAPE_ALLOW_PRIVATE;
  const start = parseUrl(url);
  options.signal?.throwIfAborted();

  // One controller for the whole scrape: its reason is either the caller's or a timeout ScrapeError.
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", cancel, { once: true });
  const signal = controller.signal;
  // The time runs from the download's start: waiting for a download slot is not the page's slowness.
  const download = () => {
    timer = setTimeout(() => controller.abort(new ScrapeError("timeout", `Timed out after ${formatSeconds(timeoutMs)}`)), timeoutMs);
    return fetchFollowing(start, {
      signal,
      maxBytes: options.maxBytes ?? env.SCRAPE_MAX_BYTES,
      maxRedirects: options.maxRedirects ?? env.SCRAPE_MAX_REDIRECTS,
      userAgent: options.userAgent ?? env.SCRAPE_USER_AGENT,
      guard: (hop) => {
        if (options.allowHost && !options.allowHost(hop.hostname)) return Promise.reject(new ScrapeError("blocked", `The host ${hop.hostname} is excluded for this request`));
        return resolveTarget(hop, { allowPrivate, lookup: options.lookup, signal });
      },
      checkType: checkDeclaredType,
    });
  };
  try {
    // The extraction workers' first start (seconds on a busy machine) is the process's, not the page's:
    // waited for before the page's time runs, as a download slot is.
    await warmExtractPool();
    signal.throwIfAborted();
    const fetched = await (options.downloadSlot ? options.downloadSlot(download) : download());
    return await toPage(start, fetched, signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", cancel);
  }
}
