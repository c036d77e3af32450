// The one JSON body parser of the API. In order: too large (413, naming the limit: the declared
// length before any byte is read), empty (400, or `{}` when the body is optional), not JSON by its
// Content-Type (415), not UTF-8 or not JSON (400), not an object (400), then the zod schema (400
// naming the field). A body that trickles is cut off on the HTTP server (body-guard.ts).
import type { z } from "zod";
import { AppError, type FieldIssue } from "../errors";
import { unstorableMessage } from "../validation/text";
import { declaredLength, jsonBodyLimit, type BodyLimit } from "./body-limits";

export { formatBytes } from "./body-limits";

export interface BodyOptions {
  /** An empty body counts as `{}` (every field of the schema is optional). */
  optional?: boolean;
  /** Default API_MAX_BODY_BYTES. */
  maxBytes?: number;
}

// application/json or any +json type; the only charset JSON has is UTF-8 (RFC 8259).
const JSON_ESSENCE = /^application\/(?:[\w.!#$&^-]+\+)?json$/i;

export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const [essence, ...params] = header.split(";");
  if (!JSON_ESSENCE.test(essence.trim())) return false;
  return params.every((param) => {
    const [name, value = ""] = param.split("=");
    return name.trim().toLowerCase() !== "charset" || /^"?utf-8"?$/i.test(value.trim());
  });
}

/** The body's bytes, reading no more than the limit + one chunk. */
async function readCapped(request: Request, limit: BodyLimit, code: `bad_request:${string}`): Promise<Uint8Array> {
  const { maxBytes } = limit;
  if ((declaredLength(request.headers.get("content-length")) ?? 0) > maxBytes) throw limit.tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new AppError(code, "The request body could not be read.", { cause: error });
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw limit.tooLarge();
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}

// Stateless between non-streaming decode() calls, so one instance serves every request.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

function decodeJson(bytes: Uint8Array, code: `bad_request:${string}`): unknown {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new AppError(code, "The request body must be UTF-8 encoded JSON.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError(code, "Request body must be a JSON object");
  }
}

// JSON's whitespace: space, tab, line feed, carriage return.
const isBlank = (bytes: Uint8Array) => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);

function pathLabel(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("") || "body";
}

/**
 * Reads, parses and validates a JSON request body. `surface` names the error code
 * (`bad_request:<surface>`); a schema error names its field in `field`.
 */
export async function parseBody<T>(request: Request, schema: z.ZodType<T>, surface: string, options: BodyOptions = {}): Promise<T> {
  const code = `bad_request:${surface}` as const;
  const bytes = await readCapped(request, jsonBodyLimit(undefined, options.maxBytes), code);
  let body: unknown = {};
  if (isBlank(bytes)) {
    if (!options.optional) throw new AppError(code, "The request body is empty: send a JSON object.");
  } else {
    if (!isJsonContentType(request.headers.get("content-type"))) {
      throw new AppError("unsupported_media_type:body", "Send the request body as JSON with Content-Type: application/json.");
    }
    body = decodeJson(bytes, code);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new AppError(code, "Request body must be a JSON object");
    }
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const described = result.error.issues.map((issue) => ({
      field: issue.path.length ? String(issue.path[0]) : undefined,
      message: unstorableMessage(issue, pathLabel(issue.path)) ?? issue.message,
    }));
    // Every invalid field once (with its first problem), so that a form can mark them all at once.
    const issues = described.filter((i, n): i is FieldIssue => !!i.field && described.findIndex((j) => j.field === i.field) === n);
    throw new AppError(code, described[0].message, { field: described[0].field, ...(issues.length ? { issues } : {}) });
  }
  return result.data;
}

/** Parses a request's query string with `schema`: a 400 naming the first invalid parameter. */
export function parseQuery<T>(request: Request, schema: z.ZodType<T>, surface: string): T {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(`bad_request:${surface}`, issue.message, { field: issue.path.length ? String(issue.path[0]) : undefined });
}
