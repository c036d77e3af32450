// Next 16 proxy (formerly middleware): a URL no route can take (a path that cannot be decoded, a NUL in
// the path or a query parameter) gets a 400 (lib/api/malformed-url.ts);
// signed-out visitors go to /sign-in, signed-out API calls get a JSON 401. Sign-in, sign-up, shared
// reports, static files and the Auth.js endpoints stay public (lib/auth/proxy-auth.ts).
// Every API request gets its x-request-id here (lib/api/request-id.ts). A declared body length over
// the path's limit is a 413 (lib/api/body-limits.ts): answered on the HTTP server before Next reads
// the body (lib/api/body-guard.ts); here again for a server without that guard, though Next then
// holds this answer until the body has arrived.
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { declaredTooLarge } from "@/lib/api/body-limits";
import { corsHeaders, isCorsPath, preflightResponse } from "@/lib/api/cors";
import { toErrorResponse } from "@/lib/api/errors";
import { malformedUrlResponse } from "@/lib/api/malformed-url";
import { openAiErrorResponse } from "@/lib/api/openai-error";
import { isApiPath, newRequestId, REQUEST_ID_HEADER } from "@/lib/api/request-id";
import { authProxy } from "@/lib/auth/proxy-auth";
import { AppError } from "@/lib/errors";

// Public files need no sign-in. Matched here rather than excluded in `config.matcher`, so that a
// malformed path that merely ends like one (/share/%ff.png) still gets its 400 instead of a 500.
const STATIC_FILE = /\.(?:svg|png|jpg|jpeg|gif|webp|ico|txt|woff2?)$/;

const BARE_API = /^\/(?:api|v1)\/?$/;

const checkSession = authProxy((error, api) => (api === "openai" ? openAiErrorResponse(error) : toErrorResponse(error)));

export async function proxy(request: NextRequest, event: NextFetchEvent) {
  const { pathname } = request.nextUrl;
  if (!isApiPath(pathname)) return pageProxy(request, event);
  const id = newRequestId();
  const response = await apiProxy(request, event);
  // Passed on: the route answers with this id (its wrapper reads the request's header) or its own (an
  // answer run's). Not set on the passed-on response: Next keeps a header the proxy set over the
  // route's. The proxy's own answers (400, 401, preflight) carry it.
  if (response.headers.has("x-middleware-next")) {
    forwardRequestId(response, request, id);
    // A plain OPTIONS is answered by Next itself (the route's methods, or an empty 204 where no route
    // is), which reads no header: the id goes on that response here.
    if (request.method === "OPTIONS") response.headers.set(REQUEST_ID_HEADER, id);
  } else response.headers.set(REQUEST_ID_HEADER, id);
  return response;
}

async function pageProxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  const malformed = malformedUrlResponse(request.nextUrl);
  if (malformed) return malformed;
  const tooLarge = declaredTooLarge(request, request.nextUrl.pathname);
  if (tooLarge) return toErrorResponse(tooLarge);
  if (STATIC_FILE.test(request.nextUrl.pathname)) return NextResponse.next();
  return checkSession(request, event);
}

async function apiProxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  const { pathname } = request.nextUrl;
  const malformed = malformedUrlResponse(request.nextUrl);
  if (malformed) return malformed;
  const preflight = preflightResponse(request, pathname);
  if (preflight) return preflight;
  const tooLarge = declaredTooLarge(request, pathname);
  if (tooLarge) return pathname.startsWith("/v1") ? openAiErrorResponse(tooLarge) : toErrorResponse(tooLarge);
  const response = STATIC_FILE.test(pathname) ? NextResponse.next() : await checkSession(request, event);
  // /api and /v1 themselves have no route (the catch-alls need a segment): their 404 is answered here,
  // in the API's shape and with the request's id, not as Next's HTML page.
  if (BARE_API.test(pathname) && response.headers.has("x-middleware-next")) {
    const error = new AppError("not_found:api", `No API endpoint at ${pathname}. See /api-reference (or /api/openapi.json).`);
    return pathname.startsWith("/v1") ? openAiErrorResponse(error) : toErrorResponse(error);
  }
  if (isCorsPath(pathname)) for (const [name, value] of Object.entries(corsHeaders(request))) response.headers.set(name, value);
  // The OpenAI-compatible API is for token clients: it sets no cookie (no session, no Auth.js state).
  if (pathname === "/v1" || pathname.startsWith("/v1/")) response.headers.delete("set-cookie");
  return response;
}

/**
 * The request goes on with the proxy's id as its x-request-id header (the client's own, if it sent
 * one, is replaced), so that the route's wrapper answers with the same id. The request headers that
 * NextResponse.next({ request }) would pass are copied onto the response the session check passed on.
 */
function forwardRequestId(response: Response, request: NextRequest, id: string): void {
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, id);
  const carrier = NextResponse.next({ request: { headers } });
  for (const [name, value] of carrier.headers) if (name.startsWith("x-middleware-") && name !== "x-middleware-next") response.headers.set(name, value);
}

export const config = {
  // Everything except build assets, and a Deep Research start with datasets (multipart): Next copies
  // a body for the proxy into memory, and keeps only its first 10 MiB, before the route reads it; that
  // route streams its files to disk itself (lib/api/deep-research-start.ts), checks the caller, and its
  // wrapper gives the request its id; body-guard.ts has refused a declared length over its limit.
  matcher: [
    "/((?!_next/static|_next/image|favicon\\.ico|api/deep-research/start).*)",
    { source: "/api/deep-research/start/:rest*", missing: [{ type: "header", key: "content-type", value: "multipart/form-data.*" }] },
  ],
};
