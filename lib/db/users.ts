// Query functions for accounts. Emails are stored trimmed and lower-cased; callers normalise them.
import { db } from "./client";

const PUBLIC = { id: true, email: true, name: true } as const;

/** The new user, or null when the email is taken already. */
export async function insertUser({ email, name, passwordHash }: { email: string; name: string | null; passwordHash: string }) {
  try {
    return await db.user.create({ data: { email, name, passwordHash }, select: PUBLIC });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return null; // unique constraint: the email
    throw error;
  }
}

export async function getUserById({ id }: { id: string }) {
  return db.user.findUnique({ where: { id }, select: PUBLIC });
}

export async function getUserByEmail({ email }: { email: string }) {
  return db.user.findUnique({ where: { email }, select: PUBLIC });
}

/** The user with their password hash, for signing in. */
export async function getUserCredentials({ email }: { email: string }) {
  return db.user.findUnique({ where: { email }, select: { ...PUBLIC, passwordHash: true } });
}
