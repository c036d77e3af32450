// The largest body each path takes, in one place: the routes check a body against it (the declared
// length first, then what arrives), and so does the guard on the HTTP server (body-guard.ts), which
// refuses a declared length over it before anything reads the body.
import { getEnv, type Env } from "../env";
import { AppError } from "../errors";

export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** What a multipart body may hold beyond its files (the boundaries, the form's other fields). */
export const MULTIPART_ALLOWANCE = 64 * 1024;

export interface BodyLimit {
  /** The largest body, in bytes, framing included. */
  maxBytes: number;
  /** The 413 naming the limit's setting. */
  tooLarge(name?: string): AppError;
}

export function jsonBodyLimit(env: Env = getEnv(), maxBytes = env.API_MAX_BODY_BYTES): BodyLimit {
  return {
    maxBytes,
    tooLarge: () => new AppError("payload_too_large:body", `The request body is larger than the limit of ${formatBytes(maxBytes)} (API_MAX_BODY_BYTES).`),
  };
}

/** One uploaded document (POST /api/collections/:id/documents). */
export function documentBodyLimit(env: Env = getEnv()): BodyLimit & { fileBytes: number } {
  const max = env.KNOWLEDGE_MAX_FILE_BYTES;
  return {
    fileBytes: max,
    maxBytes: max + MULTIPART_ALLOWANCE,
    tooLarge: (name) =>
      new AppError("payload_too_large:document", `${name ? `"${name}" is` : "The upload is"} larger than the limit of ${formatBytes(max)} (KNOWLEDGE_MAX_FILE_BYTES).`, { field: "file" }),
  };
}

/** A Deep Research start with datasets attached (multipart); a start without them is JSON. */
export function startUploadLimit(env: Env = getEnv()): BodyLimit & { fileBytes: number } {
  const max = env.DEEP_RESEARCH_MAX_UPLOAD_BYTES;
  return {
    fileBytes: max,
    maxBytes: max + MULTIPART_ALLOWANCE,
    tooLarge: () => new AppError("payload_too_large:upload", `The uploaded files are larger than the limit of ${formatBytes(max)} (DEEP_RESEARCH_MAX_UPLOAD_BYTES).`, { field: "files" }),
  };
}

const DOCUMENTS = /^\/api\/collections\/[^/]+\/documents\/?$/;
const DEEP_RESEARCH_START = /^\/api\/deep-research\/start\/?$/;

/**
 * The largest body a request to `pathname` may send: an upload route's, else the JSON limit (every
 * other route takes JSON; a page's form post, a server action, is held to it too — Next's own limit
 * for those is 1 MB).
 */
export function bodyLimitOf(pathname: string, env: Env = getEnv()): BodyLimit {
  if (DOCUMENTS.test(pathname)) return documentBodyLimit(env);
  if (DEEP_RESEARCH_START.test(pathname)) {
    // JSON or multipart: the larger of the two limits (the route then holds each to its own).
    const upload = startUploadLimit(env);
    return upload.maxBytes >= env.API_MAX_BODY_BYTES ? upload : jsonBodyLimit(env);
  }
  return jsonBodyLimit(env);
}

/** The request's declared length, when it declares one (a chunked body does not). */
export function declaredLength(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined || header.trim() === "") return undefined;
  const n = Number(header);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The 413 for a request whose declared length is over its path's limit; undefined when it is not. */
export function declaredTooLarge(request: Request, pathname: string, env: Env = getEnv()): AppError | undefined {
  const declared = declaredLength(request.headers.get("content-length"));
  const limit = bodyLimitOf(pathname, env);
  return declared !== undefined && declared > limit.maxBytes ? limit.tooLarge() : undefined;
}
