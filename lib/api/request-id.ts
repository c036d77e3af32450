// Every API response (/api/* and /v1/*) carries an x-request-id, so that a client can name the request
// it asks about. proxy.ts gives each API request a new id before anything else answers: its own
// responses (400, 401, preflight) carry it, it goes on to the route as the request's x-request-id
// header (replacing any the client sent: an id is never chosen by a client, so never another user's).
// The route wrappers answer with the request's id; an answer run's responses carry the run's own id
// instead (the id the client reads the run back with, unique per user). Routes answer every method
// they are asked (otherMethods; the catch-alls are the 404s), and the proxy answers /api and /v1
// themselves, so Next answers almost nothing by itself (left: an OPTIONS to an unknown path).

export const REQUEST_ID_HEADER = "x-request-id";

const API_PATH = /^\/(?:api|v1)(?:\/|$)/;

/** Whether a path is one of the APIs whose responses carry an x-request-id. */
export const isApiPath = (pathname: string) => API_PATH.test(pathname);

/** A new request id (Web Crypto: the proxy may run where node:crypto is not). */
export const newRequestId = (): string => globalThis.crypto.randomUUID();

/** The response with an x-request-id: its own if it has one, else the request's (the proxy's), else a new one. */
export function withRequestId(response: Response, request?: Request, id?: string): Response {
  if (response.headers.has(REQUEST_ID_HEADER)) return response;
  const value = id ?? request?.headers.get(REQUEST_ID_HEADER) ?? newRequestId();
  try {
    response.headers.set(REQUEST_ID_HEADER, value);
    return response;
  } catch {
    // immutable headers (a redirect, a fetched response): the same response with one more header
    const copy = new Response(response.body, response);
    copy.headers.set(REQUEST_ID_HEADER, value);
    return copy;
  }
}
