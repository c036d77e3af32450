// Auth.js (next-auth v5) configuration: email + password (Credentials), JWT sessions.
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { authLimiters } from "./attempt-limiter";
import { signInSchema } from "./schema";
import { baseAuthConfig } from "./config";
import { bumpSessionVersion } from "../db/users";
import { verifyCredentials } from "./users";

class TooManyAttempts extends CredentialsSignin {
  code = "too_many_attempts";
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  ...baseAuthConfig(),
  providers: [
    Credentials({
      credentials: { email: { type: "email" }, password: { type: "password" } },
      async authorize(raw) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        if (!authLimiters.signIn.take(email)) throw new TooManyAttempts();
        const user = await verifyCredentials(email, password);
        if (!user) return null;
        authLimiters.signIn.reset(email);
        return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
      },
    }),
  ],
  events: {
    // A JWT is stateless: clearing the cookie leaves a copy of it valid for 30 days. Bumping the
    // version ends it (and the user's other sessions) wherever it is kept.
    async signOut(message) {
      const sub = "token" in message ? message.token?.sub : undefined;
      if (sub) await bumpSessionVersion({ id: sub });
    },
  },
}));
