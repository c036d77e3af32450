// Accounts for integration tests: users and API tokens written straight into a TestApp's database
// (signed with the app's AUTH_SECRET), and browser-style sessions through Auth.js's own endpoints.
import bcrypt from "bcryptjs";
import { randomUUID } from "node:crypto";
import { signApiToken } from "@/lib/auth/api-token-jwt";
import type { createPrismaClient } from "@/lib/db/create-client";

/** The secret every TestApp runs with, so that tests can sign tokens for it. */
export const TEST_AUTH_SECRET = "quarry-integration-tests-secret-0123456789abcdef";

type Db = ReturnType<typeof createPrismaClient>;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  tokenId: string;
}

// Cost 4: verifying is the server's job; tests only need a valid hash, fast.
const PASSWORD = "correct horse battery staple";
const PASSWORD_HASH = bcrypt.hashSync(PASSWORD, 4);

export async function createTestUser(db: Db, { email = `user-${randomUUID()}@test.local` }: { email?: string } = {}): Promise<TestUser> {
  const user = await db.user.create({ data: { email, passwordHash: PASSWORD_HASH } });
  const { token, tokenId } = await createTestToken(db, user.id);
  return { id: user.id, email, password: PASSWORD, token, tokenId };
}

export async function createTestToken(
  db: Db,
  userId: string,
  { days = 30, name = "test", now = new Date() }: { days?: number; name?: string; now?: Date } = {},
): Promise<{ token: string; tokenId: string }> {
  const expiresAt = new Date(Math.floor((now.getTime() + days * 86_400_000) / 1000) * 1000);
  const row = await db.apiToken.create({ data: { userId, name, expiresAt } });
  const token = await signApiToken({ userId, tokenId: row.id, expiresAt, issuedAt: now, secret: TEST_AUTH_SECRET });
  return { token, tokenId: row.id };
}

function cookieHeader(res: Response, jar: Map<string, string>): void {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
}

/** Signs out like the browser does (Auth.js's sign-out with its CSRF token). */
export async function signOutSession(baseUrl: string, cookie: string): Promise<void> {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie } });
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: baseUrl },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${baseUrl}/sign-in` }),
  });
  if (res.status !== 302) throw new Error(`sign-out failed (status ${res.status})`);
}

/**
 * Signs in like the browser does (CSRF token, then the credentials callback) and returns the
 * Cookie header of the session. Requests made with it must also send a same-origin `Origin`
 * when they change state, as a browser would.
 */
export async function signInSession(baseUrl: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  cookieHeader(csrfRes, jar);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      origin: baseUrl,
    },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/` }),
  });
  cookieHeader(res, jar);
  const session = [...jar.keys()].find((k) => k.endsWith("authjs.session-token"));
  if (!session) throw new Error(`sign-in failed for ${email} (status ${res.status}, location ${res.headers.get("location")})`);
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}
