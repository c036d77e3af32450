// Next 16 proxy (formerly middleware): signed-out visitors go to /sign-in, signed-out API calls get
// a JSON 401. Sign-in, sign-up, shared reports and the Auth.js endpoints stay public (lib/auth/proxy-auth.ts).
import type { NextFetchEvent, NextRequest } from "next/server";
import { authProxy } from "@/lib/auth/proxy-auth";

export function proxy(request: NextRequest, event: NextFetchEvent) {
  return authProxy(request, event);
}

export const config = {
  // Everything except build assets and static files.
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|txt|woff2?)$).*)"],
};
