// CORS for browser clients of the answer APIs (/v1/* and /api/v1/*): the origins listed in
// ANSWER_CORS_ORIGINS (comma-separated, or *) may call them with a Bearer token; none by default.
// No credentials: a browser client sends its API token, never the session cookie.
// Read straight from process.env: the proxy runs before (and without) the validated env.

const PATHS = /^\/(?:api\/)?v1(?:\/|$)/;
const METHODS = "GET, POST, DELETE, OPTIONS";
const EXPOSED = "x-request-id, retry-after, content-type";

export const isCorsPath = (pathname: string) => PATHS.test(pathname);

function allowed(origin: string | null): string | null {
  if (!origin) return null;
  const list = (process.env.ANSWER_CORS_ORIGINS ?? "").split(",").map((o) => o.trim().replace(/\/+$/, "")).filter(Boolean);
  if (list.includes("*")) return "*";
  return list.includes(origin) ? origin : null;
}

/** The headers that let an allowed origin read a response (none for other origins). */
export function corsHeaders(request: Request): Record<string, string> {
  const origin = allowed(request.headers.get("origin"));
  if (!origin) return { vary: "Origin" };
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED, vary: "Origin" };
}

/** A preflight (OPTIONS with Access-Control-Request-Method) on a CORS path: answered here, before any sign-in check. */
export function preflightResponse(request: Request, pathname: string): Response | null {
  if (request.method !== "OPTIONS" || !isCorsPath(pathname) || !request.headers.get("access-control-request-method")) return null;
  const origin = allowed(request.headers.get("origin"));
  if (!origin) return new Response(null, { status: 204, headers: { vary: "Origin" } });
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(request),
      "access-control-allow-methods": METHODS,
      // Clients send their own headers (the openai package's x-stainless-*): allow what is asked for.
      "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "authorization, content-type",
      "access-control-max-age": "600",
    },
  });
}
