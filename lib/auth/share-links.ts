// Share links: a random 256-bit token shown to the owner once; only its SHA-256 is stored.
import crypto from "node:crypto";
import { researchExists } from "../db/research";
import {
  countShareLinkOpen,
  getShareLink,
  getShareLinkByTokenHash,
  insertShareLink,
  listShareLinksOfResearch,
  listShareLinksOfUser,
  setShareLinkRevoked,
} from "../db/share-links";
import { AppError } from "../errors";

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url without padding

export interface ShareLinkSummary {
  id: string;
  researchId: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  openCount: number;
  lastOpenedAt: string | null;
  active: boolean;
}

type Row = {
  id: string;
  researchId: string;
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
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    openCount: row.openCount,
    lastOpenedAt: row.lastOpenedAt?.toISOString() ?? null,
    active: !row.revokedAt && (!row.expiresAt || row.expiresAt > now),
  };
}

async function assertOwnsResearch(userId: string, researchId: string): Promise<void> {
  if (!(await researchExists({ id: researchId, userId }))) throw new AppError("not_found:research", "Research not found.");
}

export async function createShareLink({
  userId,
  researchId,
  expiresInDays,
  now = new Date(),
}: {
  userId: string;
  researchId: string;
  expiresInDays?: number | null;
  now?: Date;
}): Promise<{ token: string; shareLink: ShareLinkSummary }> {
  await assertOwnsResearch(userId, researchId);
  const token = crypto.randomBytes(32).toString("base64url");
  const row = await insertShareLink({
    researchId,
    tokenHash: hashShareToken(token),
    expiresAt: expiresInDays ? new Date(now.getTime() + expiresInDays * DAY_MS) : null,
  });
  return { token, shareLink: toSummary(row, now) };
}

export async function listShareLinks({ userId, researchId }: { userId: string; researchId: string }): Promise<ShareLinkSummary[]> {
  await assertOwnsResearch(userId, researchId);
  const rows = await listShareLinksOfResearch({ researchId, userId });
  return rows.map((row) => toSummary(row));
}

/** All of a user's share links with the research prompt, for the Settings page. */
export async function listUserShareLinks({ userId }: { userId: string }): Promise<(ShareLinkSummary & { researchPrompt: string })[]> {
  const rows = await listShareLinksOfUser({ userId });
  return rows.map((row) => ({ ...toSummary(row), researchPrompt: row.research.initialPrompt }));
}

export async function revokeShareLink({
  userId,
  researchId,
  id,
  now = new Date(),
}: {
  userId: string;
  researchId: string;
  id: string;
  now?: Date;
}): Promise<ShareLinkSummary> {
  const row = await getShareLink({ id, researchId, userId });
  if (!row) throw new AppError("not_found:share", "Share link not found.");
  if (row.revokedAt) return toSummary(row, now);
  return toSummary(await setShareLinkRevoked({ id, userId, now }), now);
}

/**
 * The research a share token opens, or null when the token is unknown, revoked or expired.
 * Counts the opening unless `countOpen` is false.
 */
export async function resolveShareToken(
  token: string,
  { countOpen = true, now = new Date() }: { countOpen?: boolean; now?: Date } = {},
): Promise<{ researchId: string; shareLinkId: string } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await getShareLinkByTokenHash({ tokenHash: hashShareToken(token) });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  if (countOpen) {
    await countShareLinkOpen({ id: row.id, now });
  }
  return { researchId: row.researchId, shareLinkId: row.id };
}
