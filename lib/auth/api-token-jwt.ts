// Signing of API-token JWTs, without database access (test helpers import this directly).
import { SignJWT } from "jose";
import { apiTokenKey } from "./secret";

export const API_TOKEN_ISSUER = "quarry";
export const API_TOKEN_AUDIENCE = "quarry:api";

/**
 * Signs the JWT for an existing ApiToken row. Exported for test helpers that create the row with
 * their own database client; everything else calls issueApiToken.
 */
export function signApiToken({
  userId,
  tokenId,
  expiresAt,
  issuedAt = new Date(),
  secret,
}: {
  userId: string;
  tokenId: string;
  expiresAt: Date;
  issuedAt?: Date;
  secret?: string;
}): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(API_TOKEN_ISSUER)
    .setAudience(API_TOKEN_AUDIENCE)
    .setSubject(userId)
    .setJti(tokenId)
    .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(secret ? apiTokenKey(secret) : apiTokenKey());
}

