// Share links of a research or a Deep Research conversation: a random 256-bit token shown to the
// owner once; only its SHA-256 is stored.
import crypto from "node:crypto";
import { getConversation } from "../db/conversations";
import { researchExists } from "../db/research";
import {
  countShareLinkOpen,
  getShareLink,
  getShareLinkByTokenHash,
  insertShareLink,
  listShareLinksOf,
  listShareLinksOfUser,
  setShareLinkRevoked,
  type ShareSubject,
} from "../db/share-links";
import { AppError } from "../errors";

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url without padding

export type { ShareSubject };

export interface ShareLinkSummary {
  id: string;
  /** Exactly one of the two: what the link opens. */
  researchId: string | null;
  conversationId: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  openCount: number;
  lastOpenedAt: string | null;
  active: boolean;
}

type Row = {
  id: string;
  researchId: string | null;
  conversationId: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  openCount: number;
  lastOpenedAt: Date | null;
};

export function hashShareToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

function toSummary(row: Row, now = new Date()): ShareLinkSummary {
  return {
    id: row.id,
    researchId: row.researchId,
    conversationId: row.conversationId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    openCount: row.openCount,
    lastOpenedAt: row.lastOpenedAt?.toISOString() ?? null,
    active: !row.revokedAt && (!row.expiresAt || row.expiresAt > now),
  };
}

/** 404 unless the research or conversation exists and is the user's. */
async function assertOwns(userId: string, subject: ShareSubject): Promise<void> {
  if (subject.researchId !== undefined) {
    if (!(await researchExists({ id: subject.researchId, userId }))) throw new AppError("not_found:research", "Research not found.");
  } else if (!(await getConversation({ id: subject.conversationId, userId }))) {
    throw new AppError("not_found:conversation", "Conversation not found");
  }
}

const subjectOf = (s: ShareSubject): ShareSubject => (s.researchId !== undefined ? { researchId: s.researchId } : { conversationId: s.conversationId });

export async function createShareLink({
  userId,
  expiresInDays,
  now = new Date(),
  ...target
}: ShareSubject & {
  userId: string;
  expiresInDays?: number | null;
  now?: Date;
}): Promise<{ token: string; shareLink: ShareLinkSummary }> {
  const subject = subjectOf(target);
  await assertOwns(userId, subject);
  const token = crypto.randomBytes(32).toString("base64url");
  const row = await insertShareLink({
    subject,
    tokenHash: hashShareToken(token),
    expiresAt: expiresInDays ? new Date(now.getTime() + expiresInDays * DAY_MS) : null,
  });
  return { token, shareLink: toSummary(row, now) };
}

export async function listShareLinks({ userId, ...target }: ShareSubject & { userId: string }): Promise<ShareLinkSummary[]> {
  const subject = subjectOf(target);
  await assertOwns(userId, subject);
  const rows = await listShareLinksOf({ subject, userId });
  return rows.map((row) => toSummary(row));
}

/** All of a user's share links with what each opens (a research's prompt, a conversation's title), for Settings. */
export async function listUserShareLinks({ userId }: { userId: string }): Promise<(ShareLinkSummary & { title: string })[]> {
  const rows = await listShareLinksOfUser({ userId });
  return rows.map((row) => ({ ...toSummary(row), title: row.research?.initialPrompt ?? row.conversation?.conversationTitle ?? row.conversation?.objective ?? "" }));
}

export async function revokeShareLink({
  userId,
  id,
  now = new Date(),
  ...target
}: ShareSubject & {
  userId: string;
  id: string;
  now?: Date;
}): Promise<ShareLinkSummary> {
  const row = await getShareLink({ id, subject: subjectOf(target), userId });
  if (!row) throw new AppError("not_found:share", "Share link not found.");
  if (row.revokedAt) return toSummary(row, now);
  return toSummary(await setShareLinkRevoked({ id, userId, now }), now);
}

/**
 * The research or conversation a share token opens, or null when the token is unknown, revoked or
 * expired. Counts the opening unless `countOpen` is false.
 */
export async function resolveShareToken(
  token: string,
  { countOpen = true, now = new Date() }: { countOpen?: boolean; now?: Date } = {},
): Promise<{ researchId: string | null; conversationId: string | null; shareLinkId: string } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await getShareLinkByTokenHash({ tokenHash: hashShareToken(token) });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  if (countOpen) {
    await countShareLinkOpen({ id: row.id, now });
  }
  return { researchId: row.researchId, conversationId: row.conversationId, shareLinkId: row.id };
}
