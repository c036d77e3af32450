// API tokens: HS256 JWTs (key derived from AUTH_SECRET) whose `jti` is an ApiToken row, so that a
// revocation in the database takes effect on the next request.
import { errors as joseErrors, jwtVerify } from "jose";
import { getApiToken, insertApiToken, listApiTokensOfUser, recordApiTokenUse, setApiTokenRevoked } from "../db/api-tokens";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { API_TOKEN_AUDIENCE as AUDIENCE, API_TOKEN_ISSUER as ISSUER, signApiToken } from "./api-token-jwt";
import { apiTokenKey } from "./secret";
import { endStreamsOfToken } from "./api-tokens-watch";

export { signApiToken };
const DAY_MS = 24 * 60 * 60 * 1000;
// lastUsedAt is for humans ("used 3 minutes ago"); one write per token per minute is plenty.
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export interface ApiTokenSummary {
  id: string;
  name: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type Row = { id: string; name: string; createdAt: Date; expiresAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

function toSummary(row: Row): ApiTokenSummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** Creates the row and returns the token. The token is shown once and never stored. */
export async function issueApiToken({
  userId,
  name,
  days,
  now = new Date(),
}: {
  userId: string;
  name: string;
  days?: number;
  now?: Date;
}): Promise<{ token: string; apiToken: ApiTokenSummary }> {
  const env = getEnv();
  const lifetimeDays = days ?? env.API_TOKEN_DEFAULT_DAYS;
  if (lifetimeDays > env.API_TOKEN_MAX_DAYS) {
    throw new AppError("bad_request:token", `A token can last at most ${env.API_TOKEN_MAX_DAYS} days.`, { field: "days" });
  }
  // Whole seconds, so that the row and the JWT's exp agree exactly.
  const expiresAt = new Date(Math.floor((now.getTime() + lifetimeDays * DAY_MS) / 1000) * 1000);
  const row = await insertApiToken({ userId, name, expiresAt });
  const token = await signApiToken({ userId, tokenId: row.id, expiresAt, issuedAt: now });
  return { token, apiToken: toSummary(row) };
}

/** The owner of a valid, unrevoked, unexpired token; null for anything else (never throws on bad input). */
export async function verifyApiToken(token: string, now = new Date()): Promise<{ userId: string; tokenId: string } | null> {
  let sub: string | undefined;
  let jti: string | undefined;
  try {
    const { payload } = await jwtVerify(token, apiTokenKey(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ["sub", "jti", "exp"],
    });
    sub = payload.sub;
    jti = payload.jti;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
  if (!sub || !jti) return null;
  // The token's row, and only if it is the token's subject's.
  const row = await getApiToken({ id: jti, userId: sub });
  if (!row || row.revokedAt || row.expiresAt <= now) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_WRITE_INTERVAL_MS) {
    // A failure only loses a timestamp.
    await recordApiTokenUse({ id: row.id, now, intervalMs: LAST_USED_WRITE_INTERVAL_MS }).catch((error: unknown) => console.warn("[quarry] could not record token use:", error));
  }
  return { userId: row.userId, tokenId: row.id };
}

export async function listApiTokens({ userId }: { userId: string }): Promise<ApiTokenSummary[]> {
  return (await listApiTokensOfUser({ userId })).map(toSummary);
}

/** Revokes one of the user's tokens; 404 for a token that is not theirs. Revoking twice is harmless. */
export async function revokeApiToken({ userId, id, now = new Date() }: { userId: string; id: string; now?: Date }): Promise<ApiTokenSummary> {
  const row = await getApiToken({ id, userId });
  if (!row) throw new AppError("not_found:token", "Token not found.");
  if (row.revokedAt) return toSummary(row);
  const revoked = await setApiTokenRevoked({ id, userId, now });
  // This process's streams opened with it end now; other processes' at their next check.
  endStreamsOfToken(id);
  return toSummary(revoked);
}
