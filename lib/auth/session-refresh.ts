// Auth.js re-issues the session cookie (a fresh JWT with a later expiry) on every request its
// proxy wrapper sees. Any such response that arrives after a sign-out — a link prefetch or a fetch
// that was still in flight — sets the cookie again and silently undoes the sign-out. The proxy
// drops these refreshes, so the session cookie is only ever set by signing in (and lasts the
// session maxAge from then); deletions and other cookies pass through.

const SESSION_COOKIE = /^(?:__Secure-)?authjs\.session-token(?:\.\d+)?=/;

/** A Set-Cookie line that gives the session cookie a (new) value, as opposed to clearing it. */
export function isSessionRefresh(setCookie: string): boolean {
  if (!SESSION_COOKIE.test(setCookie)) return false;
  const value = setCookie.slice(setCookie.indexOf("=") + 1).split(";")[0].trim();
  return value !== "" && !/;\s*max-age=0\s*(;|$)/i.test(setCookie);
}

/** Removes session refreshes from a response's headers in place. */
export function dropSessionRefresh(headers: Headers): void {
  const all = headers.getSetCookie();
  const kept = all.filter((c) => !isSessionRefresh(c));
  if (kept.length === all.length) return;
  headers.delete("set-cookie");
  for (const c of kept) headers.append("set-cookie", c);
}
