// Every API response carries an x-request-id, so that a client can name the request it asks about:
// the answer run's own id where there is one (set by its handler), else one made for the response.
import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

export function withRequestId(response: Response): Response {
  if (response.headers.has(REQUEST_ID_HEADER)) return response;
  try {
    response.headers.set(REQUEST_ID_HEADER, randomUUID());
    return response;
  } catch {
    // immutable headers (a redirect, a fetched response): the same response with one more header
    const copy = new Response(response.body, response);
    copy.headers.set(REQUEST_ID_HEADER, randomUUID());
    return copy;
  }
}
