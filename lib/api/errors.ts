// The one mapping from errors to HTTP: an AppError's type gives the status, its domain hints give the
// headers, and every error response has the shape { error, code, field?, errors? } (`errors`: every
// invalid field of the request; `field`: the first of them). Unknown errors are logged; the client
// gets a generic message, never a stack trace or a database message.
import { AppError, type ErrorType } from "../errors";

const STATUS: Record<ErrorType, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit: 429,
  unavailable: 503,
  internal: 500,
};

export function httpStatusOf(error: AppError): number {
  return STATUS[error.type] ?? 500;
}

/** When a retryable failure gives no better time of its own. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** The headers an error implies: when to try again, how to authenticate, what to send. */
export function errorHeaders(error: AppError): Record<string, string> {
  const implied: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) implied["Retry-After"] = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
  // Every retryable failure says when to try again (a client's backoff otherwise guesses).
  else if (error.type === "unavailable" || error.type === "rate_limit" || error.type === "internal") implied["Retry-After"] = String(DEFAULT_RETRY_AFTER_SECONDS);
  if (error.type === "unauthorized") implied["WWW-Authenticate"] = 'Bearer realm="quarry"';
  if (error.type === "unsupported_media_type") implied["Accept-Post"] = "application/json";
  return implied;
}

/** Maps any thrown value to a JSON response; `headers` add to the ones the error implies. */
export function toErrorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  if (error instanceof AppError) {
    const body = {
      error: error.message,
      code: error.code,
      ...(error.field ? { field: error.field } : {}),
      ...(error.issues?.length ? { errors: error.issues } : {}),
    };
    return Response.json(body, { status: httpStatusOf(error), headers: { ...errorHeaders(error), ...headers } });
  }
  console.error("[quarry] unhandled error:", error);
  return Response.json({ error: "Something went wrong on our side. Please try again.", code: "internal:server" }, { status: 500, headers: { "Retry-After": String(DEFAULT_RETRY_AFTER_SECONDS) } });
}
