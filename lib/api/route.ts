// The one route-handler wrapper: any thrown error becomes `{ error, code }` with its status; and the
// 405 handlers for the methods a route does not implement (Next's own 405 has no body).
import { AppError } from "../errors";
import { toErrorResponse } from "./errors";
import { withRequestId } from "./request-id";

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** Wraps a route handler so that any error becomes `{ error, code }` with the right status; every response gets an x-request-id. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return withRequestId(await handler(request, context), request);
    } catch (error) {
      return withRequestId(toErrorResponse(error), request);
    }
  };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

type Simple = (request: Request) => Promise<Response>;

/**
 * Handlers for the methods a route does not implement: 405 `{ error, code }` with `Allow`, and an
 * OPTIONS that lists only the allowed methods (Next's own lists every export). Every route ends with
 * `export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");`
 */
export function otherMethods(...allowed: Method[]): Record<Method | "HEAD" | "OPTIONS", Simple> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed: Simple = async (request) =>
    withRequestId(
      toErrorResponse(
        new AppError("method_not_allowed:api", `${request.method} is not allowed here; use ${allowed.join(" or ")}.`),
        { Allow: allow },
      ),
      request,
    );
  const options: Simple = async (request) => withRequestId(new Response(null, { status: 204, headers: { Allow: allow } }), request);
  return { GET: notAllowed, HEAD: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed, OPTIONS: options };
}
