// CSRF defence for cookie-authenticated requests: a state-changing request must come from our own
// origin. Browsers send Sec-Fetch-Site on every request (and Origin on every POST/DELETE), which a
// cross-site form or fetch cannot forge. Bearer-token requests carry no ambient credential and are exempt.
import { getEnv } from "../env";
import { AppError } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function requestHost(request: Request): string | null {
  // Behind a reverse proxy the Host header is the proxy's upstream; X-Forwarded-Host is what the
  // browser used. Only a proxy we were told of (TRUST_PROXY=1) sets it: from anyone else it is a
  // header an attacker chooses, and would make any Origin "our own".
  const forwarded = getEnv().TRUST_PROXY ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || request.headers.get("host") || new URL(request.url).host;
}

/** True when the request may change state on behalf of the cookie's owner. */
export function isSameOriginRequest(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return true;
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const allowed = new Set([requestHost(request)]);
  const configured = process.env.AUTH_URL ?? process.env.NEXTAUTH_URL;
  if (configured) {
    try {
      allowed.add(new URL(configured).host);
    } catch {
      // ignore a malformed AUTH_URL here; Auth.js reports it
    }
  }
  return allowed.has(originHost);
}

export function assertSameOrigin(request: Request): void {
  if (!isSameOriginRequest(request)) {
    throw new AppError("forbidden:csrf", "Cross-site request refused. Use the app itself, or an API token (Authorization: Bearer …).");
  }
}
