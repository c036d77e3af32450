// Request bodies are refused early on the HTTP server itself, before Next sees the request. With a
// proxy (proxy.ts), Next copies every request body for it and waits for the body's end before the
// proxy's answer or the route's handler goes on (next/dist/server/next-server.js: the proxy's
// `finalize()`), so a route's check of the declared length came only after the whole body had
// arrived: a 3 MB body sent at 200 KB/s got its 413 after 14.7 s, a declared 2 GB after Node's own 408
// at 312 s. Here, on the `request` event (installed once by instrumentation.ts, like
// unsupported-methods.ts):
// - a declared Content-Length over the path's limit (body-limits.ts) is a 413 at once, nothing read;
// - a body that has not all arrived API_BODY_TIMEOUT_MS after its headers is a 408, unless it is still
//   arriving at API_BODY_MIN_BYTES_PER_SECOND on average (a large upload over a slow link): it is then
//   looked at again every API_BODY_TIMEOUT_MS, and is a 408 once it falls below that rate or stalls.
// A 408, and a 413 for a declaration over LINGER_BYTES, close the connection: the rest of the body is
// never read. A smaller refused body is read after its answer and discarded, for LINGER_MS at most (a
// server's lingering close): a client still sending it gets the answer instead of a reset connection
// (Node's fetch reports a write to a closed connection as "fetch failed", answer or not).
import http from "node:http";
import { getEnv, type Env } from "../env";
import { AppError } from "../errors";
import { bodyLimitOf, declaredLength } from "./body-limits";
import { toErrorResponse } from "./errors";
import { openAiErrorResponse } from "./openai-error";
import { isApiPath, withRequestId } from "./request-id";
import { addRequestGuard, send } from "./server-gate";

/** The answer to a request refused before Next: JSON `{ error, code }` (OpenAI's shape under /v1). */
function refusal(error: AppError, pathname: string, close: boolean): Response {
  const headers: Record<string, string> = close ? { Connection: "close" } : {};
  if (pathname === "/v1" || pathname.startsWith("/v1/")) return openAiErrorResponse(error, headers);
  // Answered before the proxy: the API's id is made here.
  return isApiPath(pathname) ? withRequestId(toErrorResponse(error, headers)) : toErrorResponse(error, headers);
}

/** A refused body up to this size is read and discarded after the answer, for LINGER_MS at most. */
const LINGER_BYTES = 64 * 1024 * 1024;
const LINGER_MS = 10_000;

function refuse(req: http.IncomingMessage, res: http.ServerResponse, error: AppError, pathname: string, linger = false): void {
  // Already answered (a route that did not wait for its body): only the connection is left to end.
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  if (linger) {
    // Node discards the unread body once the answer is out (and keeps the connection); a body still
    // arriving after LINGER_MS ends with its connection.
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
    req.once("end", () => clearTimeout(timer));
    req.socket.once("close", () => clearTimeout(timer));
  }
  // Sent with Connection: close, Node ends the connection once it is out, whatever of the body is left.
  void send(refusal(error, pathname, !linger), res).catch(() => req.socket.destroy());
}

/**
 * Checks a request's body before Next reads it: true when it was answered here (a declared length
 * over its path's limit); else a timer answers 408 if the body does not arrive in time.
 */
export function guardBody(req: http.IncomingMessage, res: http.ServerResponse, env: Env = getEnv()): boolean {
  const declared = declaredLength(req.headers["content-length"]);
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (!declared && !chunked) return false;
  const pathname = (req.url ?? "/").split("?")[0];
  const limit = bodyLimitOf(pathname, env);
  if (declared !== undefined && declared > limit.maxBytes) {
    refuse(req, res, limit.tooLarge(), pathname, declared <= LINGER_BYTES);
    return true;
  }
  const ms = env.API_BODY_TIMEOUT_MS;
  const minRate = env.API_BODY_MIN_BYTES_PER_SECOND;
  // The bytes read from the connection (the body's, counted without reading the stream Next reads).
  const socket = req.socket;
  const startedAt = performance.now();
  const firstByte = socket.bytesRead;
  let lastSeen = firstByte;
  let timer: ReturnType<typeof setTimeout>;
  const look = () => {
    if (req.complete) return;
    const received = socket.bytesRead - firstByte;
    const rate = received / ((performance.now() - startedAt) / 1000);
    const stalled = socket.bytesRead === lastSeen;
    lastSeen = socket.bytesRead;
    if (!stalled && rate >= minRate) {
      timer = setTimeout(look, ms);
      return;
    }
    const seconds = Math.round(ms / 100) / 10;
    const message = stalled
      ? `The request body did not arrive within ${seconds} s (API_BODY_TIMEOUT_MS).`
      : `The request body arrived at ${formatRate(rate)}, below the ${formatRate(minRate)} a body taking over ${seconds} s must keep (API_BODY_MIN_BYTES_PER_SECOND, API_BODY_TIMEOUT_MS).`;
    refuse(req, res, new AppError("request_timeout:body", message), pathname);
  };
  timer = setTimeout(look, ms);
  const clear = () => clearTimeout(timer);
  req.once("end", clear);
  // The response is over (sent, or the connection gone): a body left unread is Node's to discard.
  res.once("close", clear);
  return false;
}

const formatRate = (bytesPerSecond: number) => (bytesPerSecond >= 1024 * 1024 ? `${(bytesPerSecond / 1024 / 1024).toFixed(1)} MiB/s` : `${(bytesPerSecond / 1024).toFixed(1)} KiB/s`);

/** Guards the bodies of every request on every HTTP server of this process. */
export function guardRequestBodies(): void {
  addRequestGuard("request bodies", (req, res) => guardBody(req, res));
}
