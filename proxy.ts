// Next 16 proxy (formerly middleware): a URL no route can take (a path that cannot be decoded, a NUL in
// the path or a query parameter) gets a 400 (lib/api/malformed-url.ts);
// signed-out visitors go to /sign-in, signed-out API calls get a JSON 401. Sign-in, sign-up, shared
// reports, static files and the Auth.js endpoints stay public (lib/auth/proxy-auth.ts).
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { corsHeaders, isCorsPath, preflightResponse } from "@/lib/api/cors";
import { toErrorResponse } from "@/lib/api/errors";
import { malformedUrlResponse } from "@/lib/api/malformed-url";
import { openAiErrorResponse } from "@/lib/api/openai-error";
import { authProxy } from "@/lib/auth/proxy-auth";

// Public files need no sign-in. Matched here rather than excluded in `config.matcher`, so that a
// malformed path that merely ends like one (/share/%ff.png) still gets its 400 instead of a 500.
const STATIC_FILE = /\.(?:svg|png|jpg|jpeg|gif|webp|ico|txt|woff2?)$/;

const checkSession = authProxy((error, api) => (api === "openai" ? openAiErrorResponse(error) : toErrorResponse(error)));

export async function proxy(request: NextRequest, event: NextFetchEvent) {
  const { pathname } = request.nextUrl;
  const malformed = malformedUrlResponse(request.nextUrl);
  if (malformed) return malformed;
  if (STATIC_FILE.test(pathname)) return NextResponse.next();
  const preflight = preflightResponse(request, pathname);
  if (preflight) return preflight;
  const response = await checkSession(request, event);
  if (isCorsPath(pathname)) for (const [name, value] of Object.entries(corsHeaders(request))) response.headers.set(name, value);
  // The OpenAI-compatible API is for token clients: it sets no cookie (no session, no Auth.js state).
  if (pathname === "/v1" || pathname.startsWith("/v1/")) response.headers.delete("set-cookie");
  return response;
}

export const config = {
  // Everything except build assets.
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico).*)"],
};
