// Who is calling: a browser session (cookie) or an API token (Authorization: Bearer). Every API
// route calls requireCaller(request) first.
import { getSessionUser } from "../db/users";
import { AppError } from "../errors";
import { verifyApiToken } from "./api-tokens";
import { assertSameOrigin } from "./csrf";
import { auth } from "./next-auth";

export interface Caller {
  userId: string;
  via: "session" | "token";
  /** The API token's id (via "token"): a stream opened with it ends when it is revoked (api-tokens-watch.ts). */
  tokenId?: string;
  /** The session's version (via "session"): a stream opened with it ends when the user signs out. */
  sessionVersion?: number;
}

function bearerToken(request: Request): string | null | undefined {
  const header = request.headers.get("authorization");
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

async function sessionUser(): Promise<{ userId: string; sessionVersion: number } | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  // A session outlives nothing: if the account was deleted, or the user signed out or changed the
  // password since it signed in (the version moved on), the cookie stops working.
  const user = await getSessionUser({ id });
  return user && user.sessionVersion === (session.sessionVersion ?? 0) ? { userId: user.id, sessionVersion: user.sessionVersion } : null;
}

async function sessionUserId(): Promise<string | null> {
  return (await sessionUser())?.userId ?? null;
}

/**
 * The caller, or null when signed out. A present but invalid bearer token is never
 * replaced by the session: it yields null.
 */
export async function getCaller(request: Request): Promise<Caller | null> {
  const bearer = bearerToken(request);
  if (bearer !== undefined) {
    if (!bearer) return null;
    const verified = await verifyApiToken(bearer);
    return verified ? { userId: verified.userId, via: "token", tokenId: verified.tokenId } : null;
  }
  const session = await sessionUser();
  return session ? { ...session, via: "session" } : null;
}

/** Throws 401 when signed out, 403 for a cross-site cookie-authenticated state change. */
export async function requireCaller(request: Request): Promise<Caller> {
  const caller = await getCaller(request);
  if (!caller) {
    throw new AppError("unauthorized:auth", "Sign in, or send a valid API token as Authorization: Bearer <token>.");
  }
  if (caller.via === "session") assertSameOrigin(request);
  return caller;
}

/** The signed-in user's id for server components and server actions (no bearer tokens there). */
export async function getSessionUserId(): Promise<string | null> {
  return sessionUserId();
}
