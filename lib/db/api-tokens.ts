// Query functions for API tokens: the rows behind the JWTs (lib/auth/api-tokens.ts signs and checks them).
import { db } from "./client";

export async function insertApiToken({ userId, name, expiresAt }: { userId: string; name: string; expiresAt: Date }) {
  return db.apiToken.create({ data: { userId, name, expiresAt } });
}

export async function getApiToken({ id, userId }: { id: string; userId: string }) {
  return db.apiToken.findFirst({ where: { id, userId } });
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
