// Query functions for accounts. Emails are stored trimmed and lower-cased; callers normalise them.
import { db } from "./client";

const PUBLIC = { id: true, email: true, name: true } as const;

/** The new user, or null when the email is taken already. */
export async function insertUser({ email, name, passwordHash }: { email: string; name: string | null; passwordHash: string }) {
  let user;
  try {
    user = await db.user.create({ data: { email, name, passwordHash }, select: PUBLIC });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return null; // unique constraint: the email
    throw error;
  }
  // The installation's first account administers it. Read after the insert, so that of two
  // simultaneous first sign-ups only the earlier one is made an administrator.
  const first = await db.user.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  if (first?.id === user.id) await db.user.update({ where: { id: user.id }, data: { isAdmin: true } });
  return user;
}

/** Whether the user is an administrator (sees the queue dashboard). */
export async function userIsAdmin({ id }: { id: string }): Promise<boolean> {
  return (await db.user.findUnique({ where: { id }, select: { isAdmin: true } }))?.isAdmin === true;
}

/** Makes the account an administrator (or not). False when no account has the email. */
export async function setAdmin({ email, isAdmin }: { email: string; isAdmin: boolean }): Promise<boolean> {
  const { count } = await db.user.updateMany({ where: { email }, data: { isAdmin } });
  return count === 1;
}

export async function getUserById({ id }: { id: string }) {
  return db.user.findUnique({ where: { id }, select: PUBLIC });
}

export async function getUserByEmail({ email }: { email: string }) {
  return db.user.findUnique({ where: { email }, select: PUBLIC });
}

/** The user with their password hash and session version, for signing in. */
export async function getUserCredentials({ email }: { email: string }) {
  return db.user.findUnique({ where: { email }, select: { ...PUBLIC, passwordHash: true, sessionVersion: true } });
}

/** The user's id and session version, for checking a session. */
export async function getSessionUser({ id }: { id: string }) {
  return db.user.findUnique({ where: { id }, select: { id: true, sessionVersion: true } });
}

/** Ends every session of the user (a sign-out); `passwordHash` replaces the password in the same write. */
export async function bumpSessionVersion({ id, passwordHash }: { id: string; passwordHash?: string }) {
  await db.user.updateMany({ where: { id }, data: { sessionVersion: { increment: 1 }, ...(passwordHash ? { passwordHash } : {}) } });
}

/** The user's password hash, for checking the current password before a change. */
export async function getPasswordHash({ id }: { id: string }) {
  return (await db.user.findUnique({ where: { id }, select: { passwordHash: true } }))?.passwordHash ?? null;
}

/**
 * Takes the user's start lock if it is free or its lease ran out (a crashed holder). A
 * compare-and-set: two processes never both hold it.
 */
export async function acquireUserStartLock({ userId, owner, leaseMs, now = new Date() }: { userId: string; owner: string; leaseMs: number; now?: Date }) {
  const { count } = await db.user.updateMany({
    where: { id: userId, OR: [{ startLockOwner: null }, { startLockUntil: { lt: now } }] },
    data: { startLockOwner: owner, startLockUntil: new Date(now.getTime() + leaseMs) },
  });
  return count === 1;
}

export async function releaseUserStartLock({ userId, owner }: { userId: string; owner: string }) {
  await db.user.updateMany({ where: { id: userId, startLockOwner: owner }, data: { startLockOwner: null, startLockUntil: null } });
}

/** The only account, when there is exactly one (a single-user installation); otherwise null. */
export async function soleUser() {
  const users = await db.user.findMany({ select: PUBLIC, take: 2, orderBy: { createdAt: "asc" } });
  return users.length === 1 ? users[0] : null;
}

/** The session versions of `ids` (a user missing from the map was deleted): one query for every watched session. */
export async function sessionVersionsOf({ ids }: { ids: string[] }): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, sessionVersion: true } });
  return new Map(rows.map((r) => [r.id, r.sessionVersion]));
}
