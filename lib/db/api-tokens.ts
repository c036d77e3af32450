// Query functions for API tokens: the rows behind the JWTs (lib/auth/api-tokens.ts signs and checks them).
import { db } from "./client";
import { queryDirect } from "./direct";
import { Prisma, type ApiToken } from "../generated/prisma/client";

export async function insertApiToken({ userId, name, expiresAt }: { userId: string; name: string; expiresAt: Date }) {
  return db.apiToken.create({ data: { userId, name, expiresAt } });
}

/** The user's token, or null. Plain SQL (lib/db/direct.ts): every request with a bearer token reads it, a polling client's several times a second. */
export async function getApiToken({ id, userId }: { id: string; userId: string }): Promise<ApiToken | null> {
  const [row] = await queryDirect<ApiToken>(
    Prisma.sql`SELECT "id", "userId", "name", "expiresAt", "lastUsedAt", "revokedAt", "createdAt" FROM "ApiToken" WHERE "id" = ${id} AND "userId" = ${userId}`,
    { dates: ["expiresAt", "lastUsedAt", "revokedAt", "createdAt"] },
  );
  return row ?? null;
}

export async function listApiTokensOfUser({ userId }: { userId: string }) {
  return db.apiToken.findMany({ where: { userId }, orderBy: { createdAt: "desc" } });
}

export async function setApiTokenRevoked({ id, userId, now }: { id: string; userId: string; now: Date }) {
  return db.apiToken.update({ where: { id, userId }, data: { revokedAt: now } });
}

/** Records a use, unless one was recorded in the last `intervalMs`; conditional, so concurrent requests write once. */
export async function recordApiTokenUse({ id, now, intervalMs }: { id: string; now: Date; intervalMs: number }) {
  await db.apiToken.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - intervalMs) } }] },
    data: { lastUsedAt: now },
  });
}

/**
 * Of `ids`, the tokens still usable at `now` (not revoked, not expired, not deleted): what the streams
 * opened with them check every few seconds (lib/auth/api-tokens-watch.ts), one query for them all.
 */
export async function usableApiTokenIds({ ids, now }: { ids: string[]; now: Date }): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.apiToken.findMany({ where: { id: { in: ids }, revokedAt: null, expiresAt: { gt: now } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}
