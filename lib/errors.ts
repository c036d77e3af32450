// One domain error type with a stable code (`type:subject`). Engines, services and the database layer
// throw it; only the HTTP edge (lib/api/errors.ts) turns it into a status, headers and a JSON body.
import { storable } from "./validation/text";

export type ErrorType =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "request_timeout"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limit"
  | "unavailable"
  | "internal";

export type ErrorCode = `${ErrorType}:${string}`;

export interface AppErrorOptions {
  cause?: unknown;
  /** The request field a validation error concerns, so that a form can show it beside that field. */
  field?: string;
  /** When trying again can succeed: the seconds to wait first (rate limits, a busy lock). */
  retryAfterSeconds?: number;
  /** Every invalid field of a request, so that a form can show them all at once (the first is `field`). */
  issues?: FieldIssue[];
}

export interface FieldIssue {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly type: ErrorType;
  readonly field?: string;
  readonly retryAfterSeconds?: number;
  readonly issues?: FieldIssue[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.type = code.split(":")[0] as ErrorType;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.issues = options.issues;
  }
}

/** An error's message, storable: runs store it, and a provider's or a server's reply may hold a NUL. */
export function errorMessage(error: unknown): string {
  return storable(error instanceof Error ? error.message : String(error));
}
