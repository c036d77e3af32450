// Errors sent with HTTP 200. OpenRouter, and proxies like it, answer 200 before the upstream provider
// has (a stream opens with ": OPENROUTER PROCESSING" comments while it waits), so an upstream failure
// arrives as a body: {"error": {"message": "Provider returned error", "code": 502}}, whole or as the
// stream's first event. The AI SDK reads the first as an invalid response and the second as a failed
// stream; neither is an HTTP error, so neither was retried, and a passing upstream outage or rate limit
// failed the call. Such a reply becomes the HTTP error it reports (its code where that is an HTTP
// status, 429 for a rate limit, else 502), which the retrying fetch (./http.ts) retries or hands on
// as any other. An error after the stream has begun (text already sent) is the call's.
import { wholeBytes } from "../lean-fetch";

type ErrorBody = { error: unknown };

/** The body's error when it is one and nothing else: an object with `error` and neither `choices` nor `data`. */
function errorOf(text: string): ErrorBody | undefined {
  if (!text.includes('"error"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  return v.error && v.choices === undefined && v.data === undefined ? { error: v.error } : undefined;
}

/** The HTTP status an error body reports. */
function statusOf(body: ErrorBody): number {
  const error = body.error as { code?: unknown; status?: unknown; type?: unknown; message?: unknown } | string;
  if (typeof error === "object" && error) {
    for (const code of [error.code, error.status]) {
      const n = typeof code === "string" && /^\d{3}$/.test(code) ? Number(code) : code;
      if (typeof n === "number" && n >= 400 && n <= 599) return n;
    }
  }
  return /rate.?limit|too many requests/i.test(JSON.stringify(error)) ? 429 : 502;
}

function errorResponse(body: ErrorBody, headers: Headers): Response {
  const out = new Headers(headers);
  out.set("content-type", "application/json");
  out.delete("content-length");
  out.delete("content-encoding");
  return new Response(JSON.stringify(body), { status: statusOf(body), headers: out });
}

/** The first event's data of an event stream's text, once a whole one has arrived ("" for a stream ended before any). */
function firstData(text: string, ended: boolean): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith("data:")) continue;
    // A data line is whole when a line break follows it.
    const complete = text.includes(`${line}\n`) || text.includes(`${line}\r\n`);
    if (complete || ended) return line.slice(5).trim();
    return undefined;
  }
  return ended ? "" : undefined;
}

/**
 * A 200 response as the HTTP error it carries, if it carries one (see the header); else the same
 * response (a stream: its first event read ahead, and given back with the rest). `alive` is told of
 * each piece read ahead (the attempt's idle timeout).
 */
export async function withErrorInBody(response: Response, alive: () => void): Promise<Response> {
  if (response.status !== 200 || !response.body) return response;
  // A reply that is not a stream is read whole anyway (by lib/lean-fetch.ts already, or by the AI SDK).
  const bytes = wholeBytes(response);
  // Most replies: read whole, and no "error" key in them (looked for in the bytes, nothing decoded or copied).
  if (bytes && bytes.indexOf('"error"') === -1) return response;
  if (bytes || !/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) {
    const error = errorOf(bytes ? bytes.toString("utf8") : await response.clone().text());
    return error ? errorResponse(error, response.headers) : response;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const read: Uint8Array[] = [];
  let text = "";
  let ended = false;
  let data: string | undefined;
  while (data === undefined) {
    const chunk = await reader.read();
    if (chunk.done) ended = true;
    else {
      alive();
      read.push(chunk.value);
      text += decoder.decode(chunk.value, { stream: true });
    }
    data = firstData(text, ended);
  }
  const error = data ? errorOf(data) : undefined;
  if (error) {
    await reader.cancel().catch(() => undefined);
    return errorResponse(error, response.headers);
  }
  // What was read ahead, then the rest as it comes.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = read.shift();
      if (next) return controller.enqueue(next);
      if (ended) return controller.close();
      try {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (e) {
        controller.error(e);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
