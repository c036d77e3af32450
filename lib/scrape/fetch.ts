// One HTTP(S) GET with manual redirects: every hop is vetted by the guard and its connection pinned to
// the vetted addresses; the body is decompressed and capped while it streams.
import http, { STATUS_CODES } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { formatBytes, ScrapeError } from "./errors";
import { assertHttpUrl, type ResolvedAddress } from "./ssrf";

export interface FetchSettings {
  /** Fires on the total deadline or the caller's cancellation; covers every hop, headers and body. */
  signal: AbortSignal;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  /** Vets a hop's URL and returns the only addresses it may connect to. */
  guard: (url: URL) => Promise<ResolvedAddress[]>;
  /** Sees the declared content type before the body is read; throws to refuse it. */
  checkType?: (contentType: string | null) => void;
}

export interface FetchedBody {
  finalUrl: string;
  contentType: string | null;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/pdf;q=0.8,*/*;q=0.5";

export async function fetchFollowing(start: URL, settings: FetchSettings): Promise<FetchedBody> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const addresses = await settings.guard(url);
    let res: http.IncomingMessage | undefined;
    try {
      res = await request(url, addresses, settings);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        res.destroy();
        url = nextHop(url, res.headers.location, status, hop, settings.maxRedirects);
        continue;
      }
      if (status < 200 || status >= 300) {
        throw new ScrapeError("http_status", `HTTP ${status} ${STATUS_CODES[status] ?? ""}`.trim(), { status });
      }
      const contentType = res.headers["content-type"] ?? null;
      settings.checkType?.(contentType);
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > settings.maxBytes) {
        throw new ScrapeError("too_large", `Response is too large (${formatBytes(declared)}; the limit is ${formatBytes(settings.maxBytes)})`);
      }
      const body = await readBody(res, settings);
      const finalUrl = new URL(url);
      finalUrl.hash = "";
      return { finalUrl: finalUrl.href, contentType, body };
    } catch (error) {
      res?.destroy();
      if (settings.signal.aborted || error instanceof ScrapeError) throw error;
      throw networkError(error, url.hostname);
    }
  }
}

function nextHop(url: URL, location: string | undefined, status: number, hop: number, maxRedirects: number): URL {
  if (!location) throw new ScrapeError("http_status", `HTTP ${status} redirect without a Location header`, { status });
  if (hop >= maxRedirects) throw new ScrapeError("too_many_redirects", `Too many redirects (more than ${maxRedirects})`);
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    throw new ScrapeError("invalid_url", "Redirected to an invalid URL");
  }
  assertHttpUrl(next, "Redirected to a URL that is not http or https");
  return next;
}

// Connect only to the vetted addresses, whatever DNS says now; Host and TLS SNI stay the host name.
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    if (usable.length === 0) {
      callback(Object.assign(new Error("No vetted address"), { code: "ENOTFOUND" }), "", 0);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0].address, usable[0].family);
    }
  };
}

function request(url: URL, addresses: ResolvedAddress[], settings: FetchSettings): Promise<http.IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        agent: false, // a fresh connection per hop: a pooled socket could belong to another pin
        lookup: pinnedLookup(addresses),
        signal: settings.signal,
        headers: {
          Host: url.host,
          "User-Agent": settings.userAgent,
          Accept: ACCEPT,
          "Accept-Language": "en-US,en;q=0.9",
          "Accept-Encoding": "gzip, deflate, br",
        },
      },
      resolve,
    );
    req.on("error", reject);
    req.end();
  });
}

function decoderFor(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding) {
    case "":
    case "identity":
      return null;
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      throw new ScrapeError("unsupported_type", `Unsupported content encoding ${encoding.slice(0, 40)}`);
  }
}

// The cap counts decoded bytes, so a small compressed bomb cannot expand past it.
async function readBody(res: http.IncomingMessage, settings: FetchSettings): Promise<Buffer> {
  const decoder = decoderFor((res.headers["content-encoding"] ?? "").trim().toLowerCase());
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > settings.maxBytes) {
        throw new ScrapeError("too_large", `Response is larger than the ${formatBytes(settings.maxBytes)} limit`);
      }
      chunks.push(chunk);
    }
  };
  if (decoder) await pipeline(res, decoder, sink, { signal: settings.signal });
  else await pipeline(res, sink, { signal: settings.signal });
  return Buffer.concat(chunks, size);
}

function networkError(error: unknown, host: string): ScrapeError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  const reason = (text: string) => new ScrapeError("network", text, { cause: error });
  if (code === "ECONNREFUSED") return reason(`Connection refused by ${host}`);
  if (code === "ECONNRESET" || code === "EPIPE") return reason(`Connection to ${host} was reset`);
  if (code === "ETIMEDOUT") return reason(`Connection to ${host} timed out`);
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return reason(`${host} is unreachable`);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return reason(`Could not resolve ${host}`);
  if (code.startsWith("HPE_")) return reason(`Invalid HTTP response from ${host}`);
  if (code.startsWith("Z_") || code.startsWith("ERR_BROTLI") || code.startsWith("ERR__ERROR_FORMAT")) {
    return reason(`Could not decompress the response from ${host}`);
  }
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO/.test(code)) {
    const detail = error instanceof Error ? error.message.slice(0, 120) : code;
    return reason(`TLS error with ${host}: ${detail}`);
  }
  return reason(`Could not fetch from ${host}${code ? ` (${code})` : ""}`);
}
