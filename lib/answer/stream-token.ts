// A run's stream token: a browser app on another origin follows an answer run with EventSource,
// which cannot send an Authorization header, so GET /api/v1/stream/:requestId also takes
// ?token=<stream token>. The token is short-lived (ANSWER_STREAM_TOKEN_SECONDS) and scoped to
// reading that one run: it names the run's request id and owner and carries an expiry, signed with
// a key derived from the server secret (HMAC-SHA256), so it opens nothing else and needs no storage.
import crypto from "node:crypto";
import { getAuthSecret } from "../auth/secret";
import { getEnv } from "../env";

let derived: { secret: string; key: Buffer } | undefined;

/** Its own key, derived so that it never equals the session's or the API tokens' key material. */
function key(): Buffer {
  const secret = getAuthSecret();
  if (derived?.secret !== secret) derived = { secret, key: Buffer.from(crypto.hkdfSync("sha256", secret, "quarry", "quarry answer stream token v1", 32)) };
  return derived.key;
}

interface Claims {
  /** The run's request id. */
  r: string;
  /** Its owner (null: a run of no account). */
  u: string | null;
  /** Expiry, seconds since the epoch. */
  e: number;
}

const sign = (payload: string) => crypto.createHmac("sha256", key()).update(payload).digest("base64url");

/** A token for reading this run's stream, and when it expires. */
export function issueStreamToken({ requestId, userId, now = Date.now() }: { requestId: string; userId: string | null; now?: number }): { streamToken: string; streamTokenExpiresAt: string } {
  const e = Math.floor(now / 1000) + getEnv().ANSWER_STREAM_TOKEN_SECONDS;
  const payload = Buffer.from(JSON.stringify({ r: requestId, u: userId, e } satisfies Claims)).toString("base64url");
  return { streamToken: `${payload}.${sign(payload)}`, streamTokenExpiresAt: new Date(e * 1000).toISOString() };
}

/** The owner the token reads this run as; null when it is not a valid, unexpired token for this run. */
export function verifyStreamToken(token: string, requestId: string, now = Date.now()): { userId: string | null } | null {
  const [payload, mac, extra] = token.split(".");
  if (!payload || !mac || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  let claims: Claims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claims;
  } catch {
    return null;
  }
  if (claims.r !== requestId || typeof claims.e !== "number" || claims.e * 1000 <= now) return null;
  return { userId: claims.u ?? null };
}
