// One error type with a stable code, and one mapping to the JSON error shape { error, code }.
export type ErrorType =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limit"
  | "unavailable"
  | "internal";

export type ErrorCode = `${ErrorType}:${string}`;

const STATUS: Record<ErrorType, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit: 429,
  unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** The request field a validation error concerns, so that a form can show it beside that field. */
  readonly field?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { cause?: unknown; headers?: Record<string, string>; field?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.type = code.split(":")[0] as ErrorType;
    this.status = STATUS[this.type] ?? 500;
    this.headers = options.headers;
    this.field = options.field;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Maps any thrown value to a JSON response. Unknown errors are logged; the client gets a generic message. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    const body = error.field ? { error: error.message, code: error.code, field: error.field } : { error: error.message, code: error.code };
    return Response.json(body, { status: error.status, headers: error.headers });
  }
  console.error("[quarry] unhandled error:", error);
  return Response.json({ error: "Something went wrong on our side. Please try again.", code: "internal:server" }, { status: 500 });
}
