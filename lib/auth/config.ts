// The Auth.js settings shared by the full configuration (lib/auth/next-auth.ts, with the
// Credentials provider and its database access) and the proxy's session check (no database).
import type { NextAuthConfig } from "next-auth";
import { getAuthSecret } from "./secret";

export function baseAuthConfig(): NextAuthConfig {
  return {
    secret: getAuthSecret(),
    // Self-hosted: the Host header (or X-Forwarded-Host behind a proxy) is the app's address.
    trustHost: true,
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    pages: { signIn: "/sign-in" },
    providers: [],
    callbacks: {
      jwt({ token, user }) {
        if (user?.id) {
          token.sub = user.id;
          // Compared with the user's on every read (lib/auth/caller.ts): a sign-out or a password
          // change bumps the user's, and this session stops working.
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        session.sessionVersion = typeof token.sv === "number" ? token.sv : 0;
        return session;
      },
    },
  };
}
