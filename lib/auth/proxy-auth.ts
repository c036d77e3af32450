// Session check for proxy.ts: decodes the session cookie only (no database, no providers).
// Routes still call requireCaller(), which also verifies API tokens and that the user exists.
import NextAuth, { type Session } from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { AppError } from "../errors";
import { baseAuthConfig } from "./config";
import { dropSessionRefresh } from "./session-refresh";

const { auth } = NextAuth(() => baseAuthConfig());

const PUBLIC_PAGES = [/^\/sign-in\/?$/, /^\/sign-up\/?$/, /^\/share\/[^/]+\/?$/];
// /api/config/status carries variable names only and is the readiness probe of the test helper;
// /api/openapi.json describes the API and holds no data.
const PUBLIC_API = [/^\/api\/auth(\/|$)/, /^\/api\/share\/[^/]+(\/export)?\/?$/, /^\/api\/config\/status\/?$/, /^\/api\/openapi\.json$/];

export function isPublicPath(pathname: string): boolean {
  return (pathname.startsWith("/api/") || pathname === "/api" ? PUBLIC_API : PUBLIC_PAGES).some((r) => r.test(pathname));
}

const STREAM_WITH_TOKEN = /^\/api\/v1\/stream\/[^/]+\/?$/;

type Handler = (request: NextRequest & { auth: Session | null }) => Response;
type Wrapped = (request: NextRequest, event: NextFetchEvent) => Promise<Response>;

/** The HTTP shape of a refusal is the edge's: it answers the error in the API's or in OpenAI's form. */
export type Unauthorized = (error: AppError, api: "api" | "openai") => Response;

/** Signed-out visitors go to /sign-in; signed-out API calls get a 401 (bearer tokens are checked by the route). */
const decide = (unauthorized: Unauthorized): Handler => (request) => {
  const { pathname, search } = request.nextUrl;
  if (isPublicPath(pathname) || request.auth?.user) return NextResponse.next();
  // The OpenAI-compatible API (/v1) is an API too, with OpenAI's error shape.
  const openAi = pathname === "/v1" || pathname.startsWith("/v1/");
  // The MCP server (/mcp) is an API too: its route checks the bearer token (lib/mcp/http.ts).
  if (openAi || pathname === "/mcp" || pathname === "/api" || pathname.startsWith("/api/")) {
    if (request.headers.get("authorization")) return NextResponse.next();
    // An answer run's stream with its stream token (EventSource sends no header): the route checks the token.
    if (STREAM_WITH_TOKEN.test(pathname) && request.nextUrl.searchParams.has("token")) return NextResponse.next();
    const error = new AppError("unauthorized:auth", "Sign in, or send a valid API token as Authorization: Bearer <token>.");
    return unauthorized(error, openAi ? "openai" : "api");
  }
  // The admin pages (Bull Board) authenticate for themselves (a session or an API token) and answer
  // 404 to anyone who is not an administrator, signed out included: they do not exist for others.
  if (pathname === "/admin" || pathname.startsWith("/admin/")) return NextResponse.next();
  const signIn = new URL("/sign-in", request.nextUrl);
  if (pathname !== "/") signIn.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(signIn);
};

// With a lazy (per-request) config, Auth.js's auth(handler) resolves to the wrapped handler
// asynchronously, although its type says otherwise.
const wrap = auth as unknown as (h: Handler) => Wrapped | Promise<Wrapped>;

/** Auth.js's session cookie (chunked ones too). */
const SESSION_COOKIE_NAME = /^(?:__Secure-)?authjs\.session-token(?:\.\d+)?$/;

/**
 * An API client's request: a bearer token and no session cookie. It has no session for Auth.js to
 * decode, so the decision is taken without Auth.js's wrapper, which costs every request a CSRF token
 * and a digest (a client polling a run's status sends many).
 */
const bearerOnly = (request: NextRequest) =>
  request.headers.has("authorization") && !request.cookies.getAll().some((c) => SESSION_COOKIE_NAME.test(c.name));

export function authProxy(unauthorized: Unauthorized): (request: NextRequest, event: NextFetchEvent) => Promise<Response> {
  const decideFor = decide(unauthorized);
  const wrapped = wrap(decideFor);
  return async (request, event) => {
    if (bearerOnly(request)) return decideFor(Object.assign(request, { auth: null }));
    const response = await (await wrapped)(request, event);
    // No rolling session: a refreshed cookie arriving after a sign-out would sign the user back in.
    dropSessionRefresh(response.headers);
    return response;
  };
}
