// Shared plumbing for the loopback fakes: start/stop on 127.0.0.1, socket tracking so that hanging
// requests never keep stop() from finishing, runtime options, a request log, and the HTTP control
// endpoints (POST /__control, GET /__log, POST /__reset) for out-of-process users.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { setMaxListeners } from "node:events";
import type { AddressInfo, Socket } from "node:net";

export interface LatencyRule {
  /** A regular expression (source text, so that it survives JSON) tested against the request. */
  match: string;
  latencyMs: number;
}

export interface LogResponse<Entry> {
  entries: Entry[];
  counts: Record<string, number>;
}

export class StoppedError extends Error {
  constructor() {
    super("fake server stopped or client went away");
    this.name = "StoppedError";
  }
}

const regexCache = new Map<string, RegExp>();

export function regex(source: string): RegExp {
  let compiled = regexCache.get(source);
  if (!compiled) {
    compiled = new RegExp(source, "i");
    regexCache.set(source, compiled);
  }
  return compiled;
}

/** The first rule whose regex matches wins; otherwise the default. */
export function latencyFor(text: string, rules: LatencyRule[], fallbackMs: number): number {
  return rules.find((rule) => regex(rule.match).test(text))?.latencyMs ?? fallbackMs;
}

/** Resolves after `ms`, or rejects with StoppedError as soon as any signal aborts. */
export function sleep(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signals.some((s) => s.aborted)) return reject(new StoppedError());
    if (ms <= 0) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StoppedError());
    };
    const timer = setTimeout(() => {
      for (const s of signals) s.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
  });
}

/** A promise that settles only when the server stops or the client disconnects. */
export function hang(...signals: AbortSignal[]): Promise<void> {
  return sleep(2 ** 31 - 1, ...signals);
}

export async function readBody(req: IncomingMessage, limit = 64 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Aborts when the client closes the connection before the response is finished. */
export function clientGone(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  req.on("error", () => controller.abort());
  return controller.signal;
}

export abstract class FakeServer<Options extends object, Entry> {
  readonly log: Entry[] = [];
  protected options: Options;
  /** Aborts on stop(): every sleep and hang listens to it. */
  protected stopSignal = new AbortController();
  private readonly initial: Options;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private origin = "";

  protected constructor(defaults: Options, overrides: Partial<Options> = {}) {
    this.initial = { ...defaults, ...stripUndefined(overrides) };
    this.options = structuredClone(this.initial);
  }

  /** Handles every request that is not a control request. */
  protected abstract handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  /** The key each log entry is counted under in GET /__log (agent, query, path). */
  protected abstract countKey(entry: Entry): string;
  /** Clears per-run state (counters, PRNG) on reset; the log and options are cleared by the base. */
  protected onReset(): void {}
  /** The URL users configure the product with; the LLM adds /v1. */
  protected publicUrl(origin: string): string {
    return origin;
  }

  get url(): string {
    if (!this.origin) throw new Error(`${this.constructor.name} is not started`);
    return this.publicUrl(this.origin);
  }

  /** http://127.0.0.1:PORT, where the control endpoints live (they also answer under any prefix). */
  get baseUrl(): string {
    if (!this.origin) throw new Error(`${this.constructor.name} is not started`);
    return this.origin;
  }

  currentOptions(): Options {
    return structuredClone(this.options);
  }

  /** Merges options; takes effect for the next request. */
  configure(patch: Partial<Options>): void {
    const known = Object.keys(this.initial);
    const unknown = Object.keys(patch).filter((key) => !known.includes(key));
    if (unknown.length) throw new Error(`unknown option(s): ${unknown.join(", ")}; known: ${known.join(", ")}`);
    this.options = { ...this.options, ...stripUndefined(patch) };
  }

  /** Back to the options given at construction; clears the log and counters. */
  reset(): void {
    this.options = structuredClone(this.initial);
    this.log.length = 0;
    this.onReset();
  }

  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const entry of this.log) {
      const key = this.countKey(entry);
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }

  async start(port = 0): Promise<{ url: string }> {
    if (this.server) throw new Error(`${this.constructor.name} already started`);
    this.stopSignal = new AbortController();
    // Every open request listens for stop: a benchmark has many at once.
    setMaxListeners(0, this.stopSignal.signal);
    const server = createServer((req, res) => void this.dispatch(req, res));
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url: this.url };
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.stopSignal.abort();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Hanging requests and keep-alive connections would hold close() open: end them now.
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    try {
      if (url.pathname.endsWith("/__control")) return await this.control(req, res);
      if (url.pathname.endsWith("/__log")) return sendJson(res, 200, { entries: this.log, counts: this.counts() } satisfies LogResponse<Entry>);
      if (url.pathname.endsWith("/__reset") && req.method === "POST") {
        this.reset();
        return sendJson(res, 200, { ok: true });
      }
      await this.handle(req, res, url);
    } catch (error) {
      if (error instanceof StoppedError) {
        if (!res.destroyed) res.destroy();
        return;
      }
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: "fake_server_error" } });
      else res.destroy();
    }
  }

  private async control(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === "GET") return sendJson(res, 200, this.options);
    if (req.method !== "POST") return sendJson(res, 405, { error: "use GET or POST" });
    let patch: unknown;
    try {
      const body = await readBody(req);
      patch = body.trim() ? JSON.parse(body) : {};
    } catch {
      return sendJson(res, 400, { error: "body must be a JSON object of options" });
    }
    if (!patch || typeof patch !== "object" || Array.isArray(patch)) {
      return sendJson(res, 400, { error: "body must be a JSON object of options" });
    }
    try {
      this.configure(patch as Partial<Options>);
    } catch (error) {
      return sendJson(res, 400, { error: (error as Error).message });
    }
    sendJson(res, 200, this.options);
  }
}

function stripUndefined<T extends object>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
