// Query functions for share links. A link opens one research or one Deep Research conversation and
// belongs to its owner; only the token's hash is stored.
import { db } from "./client";

/** What a link opens: exactly one of the two. */
export type ShareSubject = { researchId: string; conversationId?: never } | { conversationId: string; researchId?: never };

const ownedBy = (userId: string) => ({ OR: [{ research: { userId } }, { conversation: { userId } }] });
const subjectWhere = (s: ShareSubject) => (s.researchId !== undefined ? { researchId: s.researchId } : { conversationId: s.conversationId });

export async function insertShareLink({ subject, tokenHash, expiresAt }: { subject: ShareSubject; tokenHash: string; expiresAt: Date | null }) {
  return db.shareLink.create({ data: { ...subjectWhere(subject), tokenHash, expiresAt } });
}

export async function listShareLinksOf({ subject, userId }: { subject: ShareSubject; userId: string }) {
  return db.shareLink.findMany({ where: { ...subjectWhere(subject), ...ownedBy(userId) }, orderBy: { createdAt: "desc" } });
}

/** All of a user's share links, each with its research's prompt or its conversation's title. */
export async function listShareLinksOfUser({ userId }: { userId: string }) {
  return db.shareLink.findMany({
    where: ownedBy(userId),
    orderBy: { createdAt: "desc" },
    include: { research: { select: { initialPrompt: true } }, conversation: { select: { objective: true, conversationTitle: true } } },
  });
}

export async function getShareLink({ id, subject, userId }: { id: string; subject: ShareSubject; userId: string }) {
  return db.shareLink.findFirst({ where: { id, ...subjectWhere(subject), ...ownedBy(userId) } });
}

export async function setShareLinkRevoked({ id, userId, now }: { id: string; userId: string; now: Date }) {
  return db.shareLink.update({ where: { id, ...ownedBy(userId) }, data: { revokedAt: now } });
}

/** The link a token opens. Not scoped by owner: whoever holds the token may open it. */
export async function getShareLinkByTokenHash({ tokenHash }: { tokenHash: string }) {
  return db.shareLink.findUnique({ where: { tokenHash } });
}

export async function countShareLinkOpen({ id, now }: { id: string; now: Date }) {
  await db.shareLink.update({ where: { id }, data: { openCount: { increment: 1 }, lastOpenedAt: now } });
}
