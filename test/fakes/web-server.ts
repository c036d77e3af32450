// Fixture web server: realistic article pages, a text page, a PDF, and pages that fail in every way
// a scraper meets on the open web. See FAILING_PAGES for the list and what each does.
import type { IncomingMessage, ServerResponse } from "node:http";
import { clientGone, FakeServer, hang, latencyFor, sleep, type LatencyRule } from "./fake-server";
import { seededBytes } from "./random";
import { largeWebPages, renderLargePage, type LargeWebPage } from "./web-large";
import { overlapWebPages, renderOverlapPage, type OverlapPage } from "./web-overlap";
import { ARTICLES, CONTENT_PAGES, EMPTY_HTML, FAILING_PAGES, NOTES_TXT, PNG_1X1, REPORT_PDF } from "./web-pages";
import { escapeHtml } from "./web-templates";

export interface WebOptions {
  /** Delay before every answer. */
  latencyMs: number;
  /** First match wins; `match` is a regex tested on the path including the query string. */
  latencyRules: LatencyRule[];
  /** Size of /fail/huge. */
  hugeBytes: number;
  /**
   * Put at the start of every paragraph of the articles and the text page, e.g. "\u0000": text the
   * product must make storable.
   */
  inject: string;
  /** Serve the large fixture web too: this many generated pages at /web/<n>-<slug> (test/fakes/web-large.ts). */
  largeWeb: number;
  /** Serve the overlapping fixture web too: this many pages at /overlap/<n>-<slug> (test/fakes/web-overlap.ts). */
  overlapWeb: number;
}

export interface WebLogEntry {
  at: number;
  method: string;
  /** Path with query string, e.g. /articles/foo or /fail/slow?ms=500 */
  path: string;
  /** Null while the request is open (and forever for /fail/hang). */
  status: number | null;
  userAgent: string | null;
}

const DEFAULTS: WebOptions = { latencyMs: 0, latencyRules: [], hugeBytes: 20 * 1024 * 1024, inject: "", largeWeb: 0, overlapWeb: 0 };
const HTML = "text/html; charset=utf-8";
const BINARY = seededBytes(7, 64 * 1024);

export class FakeWeb extends FakeServer<WebOptions, WebLogEntry> {
  constructor(options: Partial<WebOptions> = {}) {
    super(DEFAULTS, options);
  }

  protected countKey(entry: WebLogEntry): string {
    return entry.path;
  }

  /** Absolute URLs of the pages with content: 24 articles, /text/notes.txt, /docs/report.pdf. */
  pages(): string[] {
    return CONTENT_PAGES.map((page) => this.baseUrl + page.path);
  }

  private large: { count: number; pages: LargeWebPage[] } | null = null;

  /** The large web's pages (empty unless `largeWeb`). */
  largePages(): LargeWebPage[] {
    const count = this.options.largeWeb;
    if (this.large?.count !== count) this.large = { count, pages: largeWebPages(count) };
    return this.large.pages;
  }

  private overlap: { count: number; pages: OverlapPage[] } | null = null;

  /** The overlapping web's pages (empty unless `overlapWeb`). */
  overlapPages(): OverlapPage[] {
    const count = this.options.overlapWeb;
    if (this.overlap?.count !== count) this.overlap = { count, pages: overlapWebPages(count) };
    return this.overlap.pages;
  }

  /**
   * Absolute URLs of the failing pages (see FAILING_PAGES for what each does). The two SSRF-bait
   * redirects (to 10.0.0.1 and 169.254.169.254) only with includeSsrfBait: a scraper running with
   * SCRAPE_ALLOW_PRIVATE=1 would follow them to those real addresses.
   */
  failingPages({ includeSsrfBait = false }: { includeSsrfBait?: boolean } = {}): string[] {
    return FAILING_PAGES.filter((page) => includeSsrfBait || !page.ssrfBait).map((page) => this.baseUrl + page.path);
  }

  /** How many times a path (or absolute URL on this server) was requested. */
  fetchCount(pathOrUrl: string): number {
    const path = pathOrUrl.startsWith("http") ? pathOrUrl.slice(new URL(pathOrUrl).origin.length) : pathOrUrl;
    return this.log.filter((entry) => entry.path === path).length;
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname + url.search;
    const entry: WebLogEntry = { at: Date.now(), method: req.method ?? "GET", path, status: null, userAgent: req.headers["user-agent"] ?? null };
    this.log.push(entry);
    res.on("finish", () => (entry.status = res.statusCode));
    const gone = clientGone(req, res);
    const signals = [this.stopSignal.signal, gone];

    await sleep(latencyFor(path, this.options.latencyRules, this.options.latencyMs), ...signals);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    const redirect = (location: string) => send(302, HTML, `<a href="${escapeHtml(location)}">Found</a>`, { location });

    const { inject } = this.options;
    const large = url.pathname.startsWith("/web/") ? this.largePages().find((p) => p.path === url.pathname) : undefined;
    if (large) {
      await sleep(large.slowMs, ...signals);
      return send(200, HTML, renderLargePage(large, this.largePages()));
    }
    const overlapPage = url.pathname.startsWith("/overlap/") ? this.overlapPages().find((p) => p.path === url.pathname) : undefined;
    if (overlapPage) return send(200, HTML, renderOverlapPage(overlapPage, this.overlapPages()));
    const article = ARTICLES.find((a) => a.path === url.pathname);
    if (article) return send(200, HTML, inject ? article.html.replaceAll("<p>", `<p>${inject}`) : article.html);
    switch (url.pathname) {
      case "/":
        return send(200, HTML, `<!doctype html><title>Fixture index</title><ul>${CONTENT_PAGES.map((p) => `<li><a href="${p.path}">${escapeHtml(p.title)}</a></li>`).join("")}</ul>`);
      case "/text/notes.txt":
        return send(200, "text/plain; charset=utf-8", inject ? NOTES_TXT.replaceAll("\n\n", `\n\n${inject}`) : NOTES_TXT);
      case "/docs/report.pdf":
        return send(200, "application/pdf", REPORT_PDF);
      case "/fail/403":
        return send(403, HTML, "<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1><p>You do not have access to this resource.</p>");
      case "/fail/500":
        return send(500, HTML, "<!doctype html><title>500 Internal Server Error</title><h1>Internal Server Error</h1>");
      case "/fail/hang":
        return hang(...signals);
      case "/fail/slow":
        await sleep(Number(url.searchParams.get("ms") ?? 10_000), ...signals);
        return send(200, HTML, ARTICLES[1].html);
      case "/fail/binary":
        return send(200, "application/octet-stream", BINARY);
      case "/fail/image.png":
        return send(200, "image/png", PNG_1X1);
      case "/fail/huge":
        return this.streamHuge(res, signals, url.searchParams.has("declared"));
      case "/fail/redirect-loop":
        return redirect("/fail/redirect-loop/b");
      case "/fail/redirect-loop/b":
        return redirect("/fail/redirect-loop");
      case "/fail/empty":
        return send(200, HTML, EMPTY_HTML);
      case "/redirect/private":
        return redirect("http://10.0.0.1/");
      case "/redirect/metadata":
        return redirect("http://169.254.169.254/latest/meta-data/");
      case "/redirect/ok":
        return redirect(ARTICLES[0].path);
      default:
        return send(404, HTML, "<!doctype html><title>404 Not Found</title><h1>Not Found</h1>");
    }
  }

  /**
   * Streams hugeBytes of HTML, respecting backpressure; stops when the client or the server goes.
   * Chunked by default, so a size cap must work while reading; ?declared sends Content-Length.
   */
  private async streamHuge(res: ServerResponse, signals: AbortSignal[], declared: boolean): Promise<void> {
    const total = this.options.hugeBytes;
    res.writeHead(200, { "content-type": HTML, ...(declared ? { "content-length": String(total) } : {}) });
    const paragraph = `<p>${ARTICLES[2].facts.join(" ")}</p>\n`;
    const chunk = Buffer.from(paragraph.repeat(Math.ceil(65_536 / paragraph.length)).slice(0, 65_536));
    let sent = 0;
    while (sent < total) {
      if (signals.some((s) => s.aborted) || res.destroyed) return;
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      if (!res.write(piece)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.on("drain", done);
          res.on("close", done);
        });
      }
    }
    res.end();
  }
}
