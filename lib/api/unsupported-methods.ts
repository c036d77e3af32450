// Methods Next cannot serve get a 405 with Allow before Next sees them. Next's route handlers know
// GET, HEAD, OPTIONS, POST, PUT, DELETE and PATCH (HTTP_METHODS in next/dist/server/web/http.js);
// another method that Node's parser accepts (http.METHODS: TRACE, PROPFIND, …) goes on to the
// proxy's adapter, which builds a fetch Request: TRACE throws there ("'TRACE' HTTP method is
// unsupported") before proxy.ts runs, a bare 500, and the others end as Next's empty 400. So the
// check sits on the HTTP server itself, installed once by instrumentation.ts. Methods Node's parser
// does not know (FOO) are a 400 from Node; CONNECT closes the connection (no server here tunnels).
import { AppError } from "../errors";
import { toErrorResponse } from "./errors";
import { openAiErrorResponse } from "./openai-error";
import { isApiPath, withRequestId } from "./request-id";
import { addRequestGuard, send } from "./server-gate";

const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const SERVED = new Set(SERVED_METHODS);

/** The 405 for a method no route serves: JSON `{ error, code }` (OpenAI's shape under /v1). */
function unsupportedMethodResponse(method: string, pathname: string): Response {
  // A route's own OPTIONS lists exactly what it serves; here only the methods any route may serve are known.
  const error = new AppError("method_not_allowed:api", `${method} is not supported here; use ${SERVED_METHODS.join(", ")} (OPTIONS lists what a path allows).`);
  const headers = { Allow: SERVED_METHODS.join(", ") };
  if (pathname === "/v1" || pathname.startsWith("/v1/")) return openAiErrorResponse(error, headers);
  // Answered before the proxy: the API's id is made here.
  return isApiPath(pathname) ? withRequestId(toErrorResponse(error, headers)) : toErrorResponse(error, headers);
}

/** Answers every request with a method Next does not serve, on every HTTP server of this process. */
export function refuseUnsupportedMethods(): void {
  addRequestGuard("unsupported methods", (req, res) => {
    if (SERVED.has(req.method ?? "")) return false;
    const pathname = (req.url ?? "/").split("?")[0];
    void send(unsupportedMethodResponse(req.method ?? "", pathname), res).catch(() => res.destroy());
    return true;
  });
}
