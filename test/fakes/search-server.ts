// Fake SearXNG: GET /search?q=…&format=json with the real JSON shape. Results are deterministic per
// query and point at the fixture web server: ~9 per query (more than the product's cap of 7), one
// URL repeated from a second engine (dedupe bait), and now and then a failing page.
import type { IncomingMessage, ServerResponse } from "node:http";
import { clientGone, FakeServer, hang, latencyFor, readBody, regex, sendJson, sleep, type LatencyRule } from "./fake-server";
import { hashString, seededRandom } from "./random";
import { largeWebPages, type LargeWebPage } from "./web-large";
import { CONTENT_PAGES, FAILING_PAGES } from "./web-pages";
import { overlapWebPages, pickOverlapPages, type OverlapPage } from "./web-overlap";

let overlapCache: { count: number; pages: OverlapPage[] } | null = null;
function overlapPages(count: number): OverlapPage[] {
  if (overlapCache?.count !== count) overlapCache = { count, pages: overlapWebPages(count) };
  return overlapCache.pages;
}

let largeCache: { count: number; pages: LargeWebPage[] } | null = null;
/** A fresh copy of the large web's page list (the picker removes what it picks). */
function largePages(count: number): LargeWebPage[] {
  if (largeCache?.count !== count) largeCache = { count, pages: largeWebPages(count) };
  return [...largeCache.pages];
}

export interface SearchOptions {
  latencyMs: number;
  /** First match wins; `match` is a regex tested on q. */
  latencyRules: LatencyRule[];
  /** Queries matching `match` (regex on q) get an error reply with `status`. */
  failRules: { match: string; status: number }[];
  /** Queries matching `match` (regex on q) never get an answer. */
  hangRules: { match: string }[];
  /** Results per query, counting the duplicate. */
  resultsPerQuery: number;
  /** Chance (0..1) that a result slot is a failing page; 0 for clean runs. */
  failingPageShare: number;
  /** Repeat one URL from a second engine in every result list. */
  includeDuplicate: boolean;
  /** Put before every result's title and snippet (e.g. "\u0000": text the product must make storable). */
  inject: string;
  /** Draw results from the large fixture web of this many pages (test/fakes/web-large.ts) instead of the 26 content pages. */
  largeWeb: number;
  /**
   * Draw results from the overlapping fixture web of this many pages (test/fakes/web-overlap.ts), the
   * most popular pages most often: a tree's queries share most of their results, as on the real web.
   */
  overlapWeb: number;
}

export interface SearchResult {
  url: string;
  title: string;
  content: string;
  engine: string;
  engines: string[];
  positions: number[];
  score: number;
  category: "general";
  parsed_url: string[];
  template: "default.html";
  publishedDate: null;
}

export interface SearchResponse {
  query: string;
  number_of_results: number;
  results: SearchResult[];
  answers: never[];
  corrections: never[];
  infoboxes: never[];
  suggestions: string[];
  unresponsive_engines: never[];
}

export interface SearchLogEntry {
  at: number;
  q: string;
  format: string | null;
  /** Null while pending (and forever for hung queries). */
  status: number | null;
  /** The result URLs returned, in order (with the duplicate). */
  urls: string[];
}

const DEFAULTS: SearchOptions = {
  latencyMs: 0,
  latencyRules: [],
  failRules: [],
  hangRules: [],
  resultsPerQuery: 9,
  failingPageShare: 0.15,
  includeDuplicate: true,
  inject: "",
  largeWeb: 0,
  overlapWeb: 0,
};

const ENGINES = ["google", "bing", "duckduckgo", "brave", "qwant", "startpage", "mojeek"];

export class FakeSearch extends FakeServer<SearchOptions, SearchLogEntry> {
  /** `webUrl`: base URL of the fixture web server the results point at. */
  constructor(
    private webUrl: string,
    options: Partial<SearchOptions> = {},
  ) {
    super(DEFAULTS, options);
  }

  setWebUrl(webUrl: string): void {
    this.webUrl = webUrl;
  }

  protected countKey(entry: SearchLogEntry): string {
    return entry.q;
  }

  /** The answer for a query, exactly as GET /search would give it (useful to predict URLs in tests). */
  resultsFor(q: string, pageno = 1): SearchResponse {
    const { resultsPerQuery, failingPageShare, includeDuplicate } = this.options;
    const next = seededRandom(hashString(pageno > 1 ? `${q}#${pageno}` : q));
    const unique = Math.max(0, resultsPerQuery - (includeDuplicate && resultsPerQuery > 1 ? 1 : 0));
    const overlap = this.options.overlapWeb > 0;
    // The overlapping web: the query's draw by popularity, taken in order.
    const content: { path: string; title: string; snippet: string }[] = overlap
      ? pickOverlapPages(overlapPages(this.options.overlapWeb), unique, next)
      : this.options.largeWeb > 0
        ? largePages(this.options.largeWeb)
        : [...CONTENT_PAGES];
    // Never the SSRF bait: the product runs against the fakes with SCRAPE_ALLOW_PRIVATE=1 and would
    // follow the redirect to a real private address.
    const contentPaths = new Set(content.map((p) => p.path));
    const failing = FAILING_PAGES.filter((page) => !page.ssrfBait);
    const picks: { path: string; title: string; snippet: string }[] = [];
    for (let i = 0; i < unique && (content.length || failing.length); i++) {
      const fromFailing = failing.length > 0 && (next() < failingPageShare || content.length === 0);
      const pool = fromFailing ? failing : content;
      const [page] = pool.splice(overlap && !fromFailing ? 0 : Math.floor(next() * pool.length), 1);
      const snippet = "snippet" in page ? page.snippet : `${page.title}. Read the full document for details.`;
      picks.push({ path: page.path, title: page.title, snippet });
    }
    const results: SearchResult[] = picks.map((page, i) => this.result(page, ENGINES[(i + hashString(q)) % ENGINES.length], i));
    // SearXNG merges most duplicates, but not all (e.g. when engines report different titles).
    const first = picks.findIndex((p) => contentPaths.has(p.path));
    if (includeDuplicate && resultsPerQuery > 1 && first >= 0) {
      const original = picks[first];
      const engine = ENGINES[(ENGINES.indexOf(results[first].engine) + 1) % ENGINES.length];
      const dup = this.result({ ...original, title: `${original.title} - Full article` }, engine, first);
      results.splice(Math.min(results.length, first + 3), 0, dup);
    }
    results.forEach((r, i) => (r.score = Number((5 / (i + 1)).toFixed(4))));
    return {
      query: q,
      number_of_results: 1_000 + (hashString(q) % 90_000),
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [`${q} 2025`, `${q} statistics`],
      unresponsive_engines: [],
    };
  }

  private result(page: { path: string; title: string; snippet: string }, engine: string, position: number): SearchResult {
    const url = this.webUrl + page.path;
    const parsed = new URL(url);
    return {
      url,
      title: this.options.inject + page.title,
      content: this.options.inject + page.snippet,
      engine,
      engines: [engine],
      positions: [position + 1],
      score: 0,
      category: "general",
      parsed_url: [parsed.protocol.replace(":", ""), parsed.host, parsed.pathname, "", parsed.search.slice(1), ""],
      template: "default.html",
      publishedDate: null,
    };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname !== "/search") return sendJson(res, 404, { error: "not found" });
    const params = new URLSearchParams(url.search);
    if (req.method === "POST") for (const [k, v] of new URLSearchParams(await readBody(req))) params.set(k, v);
    const q = params.get("q") ?? "";
    const entry: SearchLogEntry = { at: Date.now(), q, format: params.get("format"), status: null, urls: [] };
    this.log.push(entry);
    res.on("finish", () => (entry.status = res.statusCode));
    const signals = [this.stopSignal.signal, clientGone(req, res)];

    // Like SearXNG with the JSON format disabled or not asked for.
    if (entry.format !== "json") {
      res.writeHead(403, { "content-type": "text/html; charset=utf-8" });
      return void res.end("<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1>");
    }
    if (!q.trim()) return sendJson(res, 400, { error: "missing query" });
    if (this.options.hangRules.some((rule) => regex(rule.match).test(q))) return hang(...signals);
    await sleep(latencyFor(q, this.options.latencyRules, this.options.latencyMs), ...signals);
    const failure = this.options.failRules.find((rule) => regex(rule.match).test(q));
    if (failure) return sendJson(res, failure.status, { error: `fake failure for "${q}"` });

    const body = this.resultsFor(q, Number(params.get("pageno") ?? 1) || 1);
    entry.urls = body.results.map((r) => r.url);
    sendJson(res, 200, body);
  }
}
