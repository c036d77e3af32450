// The fetch for the LLM and search servers: node:http(s) over keep-alive agents, a JSON reply read
// whole into the Response, an event stream passed through as it arrives. Node's fetch (undici with
// web streams) cost ~0.3 ms more CPU per exchange than this on the benchmark's machine, ~7% of the
// server's main thread in a (5, 5) research: it makes ~1,000 such exchanges. Next.js wraps the global
// fetch for its data cache; these calls are never cached, so they bypass it too.
//
// What fetch does that this keeps: redirects (up to 5; 307/308 resend the body, 301–303 become a GET),
// gzip/deflate/brotli replies, abort by signal (the promise and the body reject with the signal's reason).
// Anything else (a Request, a streamed or form body) goes to Node's own fetch.
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { pipeline, Readable } from "node:stream";
import zlib from "node:zlib";

/** Replies of these types are passed on as they arrive; any other is read whole first. */
const STREAMED = /^(text\/event-stream|application\/x-ndjson)\b/i;
/** A reply read whole larger than this is refused (an LLM's or SearXNG's JSON is far smaller). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/**
 * An idle kept-alive connection is closed after this long, or a second before the server's announced
 * keep-alive timeout: a request is not sent on a connection the server is closing (ECONNRESET). As
 * Node's fetch does (undici's keepAliveTimeout); Node's agent alone keeps idle sockets until the server
 * closes them. A socket in use has no idle timeout: the caller's signal bounds a request.
 */
const IDLE_SOCKET_MS = 4_000;

function closingIdle<A extends http.Agent>(agent: A): A {
  const keep = agent.keepSocketAlive.bind(agent) as unknown as (socket: Socket) => boolean;
  const reuse = agent.reuseSocket.bind(agent);
  Object.assign(agent, {
    keepSocketAlive(socket: Socket): boolean {
      if (!keep(socket)) return false;
      // Node's agent set the server's hint, if any, when it had a timeout of its own (it has none).
      const hint = /^timeout=(\d+)/.exec(String((socket as Socket & { _httpMessage?: { res?: http.IncomingMessage } })._httpMessage?.res?.headers["keep-alive"] ?? ""))?.[1];
      const idleMs = Math.min(IDLE_SOCKET_MS, hint ? Number(hint) * 1000 - 1000 : IDLE_SOCKET_MS);
      if (idleMs <= 0) return false;
      socket.setTimeout(idleMs);
      return true;
    },
    reuseSocket(socket: Socket, request: http.ClientRequest): void {
      socket.setTimeout(0);
      reuse(socket, request);
    },
  });
  return agent;
}

const agents = {
  "http:": closingIdle(new http.Agent({ keepAlive: true, scheduling: "lifo" })),
  "https:": closingIdle(new https.Agent({ keepAlive: true, scheduling: "lifo" })),
};

/** Replies read whole before their Response was made, with their bytes: their body costs nothing more to wait for. */
const whole = new WeakMap<Response, Buffer>();

/** True when the response's body is already in memory (see leanFetch): reading it waits on nothing. */
export function isReadWhole(response: Response): boolean {
  return whole.has(response);
}

/** The bytes of a response read whole (see leanFetch), to look into without reading its body; else undefined. */
export function wholeBytes(response: Response): Buffer | undefined {
  return whole.get(response);
}

/** Node's own fetch, past Next.js's wrapper (its data cache and tracing). */
function plainFetch(): typeof fetch {
  const patched = globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch };
  return patched._nextOriginalFetch ?? patched;
}

type Body = string | Uint8Array | undefined;

function bodyOf(init: RequestInit | undefined): Body | null {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  return null;
}

const DEFAULT_HEADERS = [["accept", "*/*"], ["accept-language", "*"], ["accept-encoding", "gzip, deflate, br"], ["user-agent", "node"]] as const;

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  // The AI SDK's headers are a plain object: read as they are (a Headers object validates every one anew).
  if (headers && !(headers instanceof Headers) && !Array.isArray(headers)) {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) record[name.toLowerCase()] = String(value);
  } else new Headers(headers).forEach((value, name) => (record[name] = value));
  // The defaults Node's fetch sends: a SearXNG with its bot detection on refuses a request without an
  // Accept-Language.
  for (const [name, value] of DEFAULT_HEADERS) if (!(name in record)) record[name] = value;
  return record;
}

const SYNC = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_SYNC = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

/** The reply's body decoded; an error of the reply reaches the decoder's readers. */
function decoded(res: http.IncomingMessage): Readable {
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder = encoding === "gzip" || encoding === "x-gzip" ? zlib.createGunzip(SYNC)
    : encoding === "deflate" ? zlib.createInflate(SYNC)
    : encoding === "br" ? zlib.createBrotliDecompress(BROTLI_SYNC)
    : null;
  return decoder ? pipeline(res, decoder, () => {}) : res;
}

/** A failure on the way, as Node's fetch reports it: a TypeError "fetch failed" with the cause. */
function fetchFailed(error: unknown): TypeError {
  return new TypeError("fetch failed", { cause: error });
}

function responseHeaders(res: http.IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    // The body handed on is decoded: its encoding and length are no longer the wire's.
    if (name === "content-encoding" || name === "content-length") continue;
    headers.append(raw[i], raw[i + 1]);
  }
  return headers;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function exchange(url: URL, method: string, headers: Record<string, string>, body: Body, signal: AbortSignal | undefined): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(url, { method, headers, agent: agents[url.protocol as "http:" | "https:"] }, resolve);
    const onAbort = () => request.destroy(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    request.once("close", () => signal?.removeEventListener("abort", onAbort));
    request.once("error", (error) => reject(signal?.aborted ? signal.reason : fetchFailed(error)));
    request.end(body);
  });
}

function readWhole(stream: Readable, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: unknown) => {
      signal?.removeEventListener("abort", onAbort);
      stream.destroy();
      reject(signal?.aborted ? signal.reason : fetchFailed(error));
    };
    const onAbort = () => fail(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BUFFERED_BYTES) fail(new Error(`The reply is larger than ${MAX_BUFFERED_BYTES} bytes`));
      else chunks.push(chunk);
    });
    stream.once("error", fail);
    stream.once("end", () => {
      signal?.removeEventListener("abort", onAbort);
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
  });
}

/** A streamed reply's body; an abort of the signal errors it with the signal's reason. */
function streamedBody(stream: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  if (signal) {
    const onAbort = () => stream.destroy(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    stream.once("close", () => signal.removeEventListener("abort", onAbort));
  }
  return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
}

export const leanFetch: typeof fetch = async (input, init) => {
  const body = bodyOf(init);
  if ((typeof input !== "string" && !(input instanceof URL)) || body === null) return plainFetch()(input, init);
  let url = new URL(input);
  if (url.protocol !== "http:" && url.protocol !== "https:") return plainFetch()(input, init);
  const signal = init?.signal ?? undefined;
  signal?.throwIfAborted();
  let method = (init?.method ?? "GET").toUpperCase();
  let headers = headerRecord(init?.headers);
  let sent: Body = body;
  for (let redirects = 0; ; redirects++) {
    const res = await exchange(url, method, headers, sent, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location && (init?.redirect ?? "follow") === "follow") {
      res.resume();
      if (redirects >= MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects from ${url.origin}`);
      const next = new URL(location, url);
      if (status !== 307 && status !== 308 && method !== "GET" && method !== "HEAD") {
        method = "GET";
        sent = undefined;
        const { "content-type": _type, "content-length": _length, ...rest } = headers;
        headers = rest;
      }
      // Credentials stay with their origin, as fetch does.
      if (next.origin !== url.origin) delete headers.authorization;
      url = next;
      continue;
    }
    const meta = { status, statusText: res.statusMessage ?? "", headers: responseHeaders(res) };
    if (NULL_BODY.has(status) || method === "HEAD") {
      res.resume();
      return new Response(null, meta);
    }
    const stream = decoded(res);
    if (STREAMED.test(res.headers["content-type"] ?? "")) return new Response(streamedBody(stream, signal), meta);
    const bytes = await readWhole(stream, signal);
    const response = new Response(bytes as Uint8Array<ArrayBuffer>, meta);
    whole.set(response, bytes);
    return response;
  }
};
