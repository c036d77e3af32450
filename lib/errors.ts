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

/**
 * Why a run's (or a part job's) work stopped: another process owns it now (its lease or its job's lock
 * was lost, or its rows were deleted). The work writes nothing more, and an LLM call in flight is left
 * counted as unsettled (its reply may have reached the provider and been billed), as at a crash.
 * Recognised by its `ownershipLost` mark, not `instanceof`: the server's bundles each have their own copy of a class.
 */
export class OwnershipLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OwnershipLostError";
  }

  /** The mark `ownershipLost` looks for (subclasses keep it under their own names). */
  readonly ownershipLost = true;
}

/** Whether an error says that its work's process no longer owns it (OwnershipLostError and its kinds). */
export function isOwnershipLoss(error: unknown): boolean {
  return error instanceof Error && (error as { ownershipLost?: unknown }).ownershipLost === true;
}

/** Whether a signal was aborted because its work's process no longer owns it (OwnershipLostError and its kinds). */
export function ownershipLost(signal: AbortSignal | undefined): boolean {
  return Boolean(signal?.aborted) && isOwnershipLoss(signal!.reason);
}

/** An error's message, storable: runs store it, and a provider's or a server's reply may hold a NUL. */
export function errorMessage(error: unknown): string {
  return storable(error instanceof Error ? error.message : String(error));
}
