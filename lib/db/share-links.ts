// Query functions for share links. A link belongs to its research's owner; only the token's hash is stored.
import { db } from "./client";

export async function insertShareLink({ researchId, tokenHash, expiresAt }: { researchId: string; tokenHash: string; expiresAt: Date | null }) {
  return db.shareLink.create({ data: { researchId, tokenHash, expiresAt } });
}

export async function listShareLinksOfResearch({ researchId, userId }: { researchId: string; userId: string }) {
  return db.shareLink.findMany({ where: { researchId, research: { userId } }, orderBy: { createdAt: "desc" } });
}

/** All of a user's share links, each with its research's prompt. */
export async function listShareLinksOfUser({ userId }: { userId: string }) {
  return db.shareLink.findMany({
    where: { research: { userId } },
    orderBy: { createdAt: "desc" },
    include: { research: { select: { initialPrompt: true } } },
  });
}

export async function getShareLink({ id, researchId, userId }: { id: string; researchId: string; userId: string }) {
  return db.shareLink.findFirst({ where: { id, researchId, research: { userId } } });
}

export async function setShareLinkRevoked({ id, userId, now }: { id: string; userId: string; now: Date }) {
  return db.shareLink.update({ where: { id, research: { userId } }, data: { revokedAt: now } });
}

/** The link a token opens. Not scoped by owner: whoever holds the token may open it. */
export async function getShareLinkByTokenHash({ tokenHash }: { tokenHash: string }) {
  return db.shareLink.findUnique({ where: { tokenHash } });
}

export async function countShareLinkOpen({ id, now }: { id: string; now: Date }) {
  await db.shareLink.update({ where: { id }, data: { openCount: { increment: 1 }, lastOpenedAt: now } });
}
