// A fault-injecting proxy in front of an OpenAI-compatible server (the fake LLM): per request, from a
// seeded PRNG, it answers 429 with Retry-After, 500, or an outage (a status or a reset connection),
// adds latency, or forwards the request and relays the reply unchanged (SSE chunk by chunk). It counts
// outcomes and sums the `usage` of the completions it forwarded: what the provider actually charged.
// Out-of-process users drive it over HTTP: POST /__control, GET /__log, POST /__reset (FakeServer),
// GET /__stats, POST /__down {"ms": 60000}.
import { createHash } from "node:crypto";
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { clientGone, FakeServer, readBody, sendJson, sleep } from "./fake-server";
import { agentOf, messageText, type ChatMessage } from "./llm-parse";
import { seededRandom } from "./random";

export interface FaultOptions {
  /** The upstream's base URL, such as the fake LLM's `http://127.0.0.1:PORT/v1`; paths are kept. */
  upstream: string;
  seed: number;
  /** Share (0..1) of requests answered 429 with `Retry-After: retryAfterSeconds`. */
  rate429: number;
  retryAfterSeconds: number;
  /** Share (0..1) of requests answered 500 (drawn after rate429, from the same draw). */
  rate500: number;
  /** While true, every request gets the outage. */
  outage: boolean;
  /** Epoch ms until which the outage is on as well (set by down(ms)); 0: none. */
  outageUntil: number;
  outageStatus: number;
  /** "status": answer outageStatus; "reset": destroy the connection without an answer. */
  outageMode: "status" | "reset";
  /** Latency added before forwarding, to a share of the forwarded requests. */
  slowMs: number;
  slowShare: number;
}

export type FaultOutcome = "injected-429" | "injected-500" | "outage" | "forwarded";

export interface FaultLogEntry {
  at: number;
  /** Epoch ms when the reply ended (null while open). */
  endedAt: number | null;
  path: string;
  agent: string;
  stream: boolean;
  outcome: FaultOutcome;
  /** The upstream's status for forwarded requests (null if it never answered). */
  upstreamStatus: number | null;
  /** A forwarded 2xx reply relayed to its end. */
  completed: boolean;
  /** The client or the upstream went away mid-request. */
  aborted: boolean;
  delayMs: number;
  /** The same request body was seen before: a retry. */
  repeat: boolean;
  bodyHash: string;
  /** The request's messages' text (whose work a call serves: the query or page it names). */
  prompt: string;
  /** From the upstream's `usage` (JSON reply, or the final SSE chunk). */
  promptTokens: number;
  completionTokens: number;
}

export interface FaultStats {
  requests: number;
  injected429: number;
  injected500: number;
  outage: number;
  forwarded: number;
  /** Forwarded and relayed to the end with a 2xx: completions the provider charged for. */
  completed: number;
  /** Forwarded, answered with a non-2xx by the upstream. */
  upstreamErrors: number;
  aborted: number;
  /** Requests whose body had been sent before (retries of any outcome). */
  repeats: number;
  /** Completed requests whose body had already completed once: work done twice. */
  duplicateCompletions: number;
  usage: { promptTokens: number; completionTokens: number; completions: number };
}

const DEFAULTS: FaultOptions = {
  upstream: "",
  seed: 1,
  rate429: 0,
  retryAfterSeconds: 1,
  rate500: 0,
  outage: false,
  outageUntil: 0,
  outageStatus: 503,
  outageMode: "status",
  slowMs: 0,
  slowShare: 1,
};

// Connection-level headers belong to each hop; Node sets its own.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer", "host"]);

export class LlmFaultProxy extends FakeServer<FaultOptions, FaultLogEntry> {
  private faultRandom: () => number;
  private slowRandom: () => number;
  private readonly seen = new Set<string>();

  constructor(options: Partial<FaultOptions> & { upstream: string }) {
    super(DEFAULTS, options);
    this.faultRandom = seededRandom(this.options.seed);
    this.slowRandom = seededRandom(this.options.seed + 1);
  }

  /** Same path as the upstream (…/v1), so that it replaces OPENAI_BASE_URL as is. */
  protected publicUrl(origin: string): string {
    return `${origin}${new URL(this.options.upstream).pathname.replace(/\/+$/, "")}`;
  }

  protected countKey(entry: FaultLogEntry): string {
    return entry.outcome === "forwarded" && entry.completed ? "completed" : entry.outcome;
  }

  protected onReset(): void {
    this.faultRandom = seededRandom(this.options.seed);
    this.slowRandom = seededRandom(this.options.seed + 1);
    this.seen.clear();
  }

  configure(patch: Partial<FaultOptions>): void {
    super.configure(patch);
    if (patch.seed !== undefined) {
      this.faultRandom = seededRandom(patch.seed);
      this.slowRandom = seededRandom(patch.seed + 1);
    }
  }

  /** The outage for the next `ms` (it ends by itself); down(0) ends it. */
  down(ms: number): void {
    this.configure({ outageUntil: ms > 0 ? Date.now() + ms : 0 });
  }

  outageActive(now = Date.now()): boolean {
    return this.options.outage || now < this.options.outageUntil;
  }

  stats(): FaultStats {
    const s: FaultStats = {
      requests: this.log.length, injected429: 0, injected500: 0, outage: 0, forwarded: 0, completed: 0,
      upstreamErrors: 0, aborted: 0, repeats: 0, duplicateCompletions: 0,
      usage: { promptTokens: 0, completionTokens: 0, completions: 0 },
    };
    const completedOnce = new Set<string>();
    for (const e of this.log) {
      if (e.outcome === "injected-429") s.injected429++;
      else if (e.outcome === "injected-500") s.injected500++;
      else if (e.outcome === "outage") s.outage++;
      else s.forwarded++;
      if (e.repeat) s.repeats++;
      if (e.aborted) s.aborted++;
      if (e.upstreamStatus !== null && (e.upstreamStatus < 200 || e.upstreamStatus >= 300)) s.upstreamErrors++;
      if (!e.completed) continue;
      s.completed++;
      if (completedOnce.has(e.bodyHash)) s.duplicateCompletions++;
      completedOnce.add(e.bodyHash);
      s.usage.promptTokens += e.promptTokens;
      s.usage.completionTokens += e.completionTokens;
      s.usage.completions++;
    }
    return s;
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname.endsWith("/__stats")) return sendJson(res, 200, this.stats());
    if (url.pathname.endsWith("/__down") && req.method === "POST") {
      let ms: unknown;
      try {
        ms = (JSON.parse((await readBody(req)) || "{}") as { ms?: unknown }).ms;
      } catch {
        ms = undefined;
      }
      if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) return sendJson(res, 400, { error: 'body must be {"ms": <non-negative number>}' });
      this.down(ms);
      return sendJson(res, 200, this.options);
    }

    const body = await readBody(req);
    const bodyHash = createHash("sha1").update(`${req.method} ${url.pathname}\n${body}`).digest("hex");
    let parsed: { messages?: ChatMessage[]; stream?: boolean } = {};
    try {
      parsed = body ? (JSON.parse(body) as typeof parsed) : {};
    } catch {
      // Forwarded as is: the upstream answers malformed requests itself.
    }
    const entry: FaultLogEntry = {
      at: Date.now(), endedAt: null, path: url.pathname,
      agent: Array.isArray(parsed.messages) ? agentOf(parsed.messages) : "unknown",
      stream: parsed.stream === true, outcome: "forwarded", upstreamStatus: null, completed: false, aborted: false,
      delayMs: 0, repeat: this.seen.has(bodyHash), bodyHash,
      prompt: Array.isArray(parsed.messages) ? parsed.messages.map(messageText).join("\n") : "",
      promptTokens: 0, completionTokens: 0,
    };
    this.seen.add(bodyHash);
    this.log.push(entry);
    res.on("close", () => (entry.endedAt ??= Date.now()));

    const o = this.options;
    // Two PRNG streams, so that the slow draws never shift which requests fail.
    const draw = this.faultRandom();
    const slow = o.slowMs > 0 && this.slowRandom() < o.slowShare;
    if (this.outageActive()) {
      entry.outcome = "outage";
      if (o.outageMode === "reset") {
        req.socket.destroy();
        return;
      }
      return sendJson(res, o.outageStatus, errorBody(o.outageStatus));
    }
    if (draw < o.rate429) {
      entry.outcome = "injected-429";
      return sendJson(res, 429, errorBody(429), { "retry-after": String(o.retryAfterSeconds) });
    }
    if (draw < o.rate429 + o.rate500) {
      entry.outcome = "injected-500";
      return sendJson(res, 500, errorBody(500));
    }
    const signals = [this.stopSignal.signal, clientGone(req, res)];
    if (slow) {
      entry.delayMs = o.slowMs;
      await sleep(o.slowMs, ...signals);
    }
    await this.forward(req, res, url, body, entry, signals);
  }

  private forward(req: IncomingMessage, res: ServerResponse, url: URL, body: string, entry: FaultLogEntry, signals: AbortSignal[]): Promise<void> {
    const upstream = new URL(this.options.upstream);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers["content-length"] = String(Buffer.byteLength(body));
    return new Promise<void>((resolve) => {
      // The client went away or the proxy stops: drop the upstream request too.
      const onAbort = () => {
        entry.aborted = true;
        upstreamReq.destroy();
        res.destroy();
        done();
      };
      const done = () => {
        for (const s of signals) s.removeEventListener("abort", onAbort);
        resolve();
      };
      const upstreamReq = httpRequest(
        { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: `${url.pathname}${url.search}`, headers },
        (upstreamRes) => {
          entry.upstreamStatus = upstreamRes.statusCode ?? 0;
          res.writeHead(entry.upstreamStatus, relayHeaders(upstreamRes.headers));
          res.flushHeaders();
          const chunks: Buffer[] = [];
          upstreamRes.on("data", (chunk: Buffer) => {
            chunks.push(chunk);
            res.write(chunk);
          });
          upstreamRes.on("end", () => {
            res.end();
            const ok = entry.upstreamStatus! >= 200 && entry.upstreamStatus! < 300;
            if (ok) {
              entry.completed = true;
              Object.assign(entry, usageOf(Buffer.concat(chunks).toString("utf8")));
            }
            done();
          });
          upstreamRes.on("error", () => {
            entry.aborted = true;
            res.destroy();
            done();
          });
        },
      );
      upstreamReq.on("error", () => {
        entry.aborted = true;
        // The upstream refused or reset: a gateway error, as a real proxy would answer.
        if (!res.headersSent && !res.destroyed) sendJson(res, 502, errorBody(502));
        else res.destroy();
        done();
      });
      for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
      if (signals.some((s) => s.aborted)) return onAbort();
      upstreamReq.end(body);
    });
  }
}

function relayHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** `usage` of a JSON completion, or of the last SSE chunk that carries one. */
export function usageOf(text: string): { promptTokens: number; completionTokens: number } {
  const read = (u: unknown) => {
    const usage = u as { prompt_tokens?: number; completion_tokens?: number } | null | undefined;
    return usage && typeof usage === "object" ? { promptTokens: usage.prompt_tokens ?? 0, completionTokens: usage.completion_tokens ?? 0 } : undefined;
  };
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    try {
      return read((JSON.parse(trimmed) as { usage?: unknown }).usage) ?? { promptTokens: 0, completionTokens: 0 };
    } catch {
      return { promptTokens: 0, completionTokens: 0 };
    }
  }
  let last: { promptTokens: number; completionTokens: number } | undefined;
  for (const line of text.split("\n")) {
    const payload = line.startsWith("data:") ? line.slice(5).trim() : "";
    if (!payload || payload === "[DONE]") continue;
    try {
      last = read((JSON.parse(payload) as { usage?: unknown }).usage) ?? last;
    } catch {
      // A partial or foreign line: not ours to judge.
    }
  }
  return last ?? { promptTokens: 0, completionTokens: 0 };
}

function errorBody(status: number) {
  if (status === 429) return { error: { message: "Rate limit reached (fault proxy). Please try again later.", type: "requests", param: null, code: "rate_limit_exceeded" } };
  return { error: { message: `The server had an error while processing your request (fault proxy ${status}).`, type: "server_error", param: null, code: null } };
}
