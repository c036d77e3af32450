// Errors of the OpenAI-compatible endpoints (/v1/*) in OpenAI's shape, {error: {message, type,
// param, code}}, with the same statuses as the rest of the API; and their route wrapper.
import { AppError } from "../errors";
import { errorHeaders, httpStatusOf } from "./errors";
import { withRequestId } from "./request-id";

const TYPE: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  408: "invalid_request_error",
  409: "invalid_request_error",
  413: "invalid_request_error",
  415: "invalid_request_error",
  429: "rate_limit_error",
  503: "server_error",
};

/** How long to wait before retrying after an unexpected server error. */
const SERVER_ERROR_RETRY_AFTER = "5";

/** An error in OpenAI's shape; every one has an x-request-id, and the retryable ones (429, 5xx) a Retry-After. */
export function openAiErrorResponse(error: unknown, headers: Record<string, string> = {}, request?: Request): Response {
  return withRequestId(errorBody(error, headers), request);
}

function errorBody(error: unknown, headers: Record<string, string>): Response {
  if (!(error instanceof AppError)) {
    console.error("[quarry] /v1 request failed:", error);
    return Response.json(
      { error: { message: "The server had an error while processing your request", type: "server_error", param: null, code: null } },
      { status: 500, headers: { "Retry-After": SERVER_ERROR_RETRY_AFTER, ...headers } },
    );
  }
  const status = httpStatusOf(error);
  const code = status === 401 ? "invalid_api_key" : error.code === "not_found:model" ? "model_not_found" : error.code.replace(":", "_");
  return Response.json(
    { error: { message: error.message, type: TYPE[status] ?? "server_error", param: error.field ?? null, code } },
    { status, headers: { ...errorHeaders(error), ...headers } },
  );
}

export function openAiRoute<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      return withRequestId(await handler(request, context), request);
    } catch (error) {
      return openAiErrorResponse(error, {}, request);
    }
  };
}

/** 405 for the methods an endpoint does not take, OpenAI-shaped. */
export function openAiOtherMethods(...allowed: string[]) {
  const allow = [...allowed, "OPTIONS"].join(", ");
  const notAllowed = async (request: Request) =>
    openAiErrorResponse(new AppError("method_not_allowed:api", `${request.method} is not allowed here; use ${allowed.join(" or ")}.`), { Allow: allow }, request);
  const options = async (request: Request) => withRequestId(new Response(null, { status: 204, headers: { Allow: allow } }), request);
  return { GET: notAllowed, HEAD: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed, OPTIONS: options };
}
