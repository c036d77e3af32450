// Accounts: email + bcrypt password hash.
import { bumpSessionVersion, getPasswordHash, getUserCredentials, insertUser, userIsAdmin } from "../db/users";
import { AppError } from "../errors";
import { hashPassword, verifyPassword } from "./password";
import { signUpSchema } from "./schema";

export interface PublicUser {
  id: string;
  email: string;
  name: string | null;
}

function parseSignUp(input: { email: string; password: string; name?: string }) {
  const parsed = signUpSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request:account", issue?.message ?? "Invalid account details.", { field: String(issue?.path[0] ?? "") || undefined });
  }
  return parsed.data;
}

export async function createUser(input: { email: string; password: string; name?: string }): Promise<PublicUser> {
  const data = parseSignUp(input);
  const passwordHash = await hashPassword(data.password);
  const user = await insertUser({ email: data.email, name: data.name ?? null, passwordHash });
  if (!user) throw new AppError("conflict:account", "An account with this email already exists.", { field: "email" });
  return user;
}

/**
 * Returns the user (with the session version a new session carries) when the password matches;
 * null otherwise (same timing for unknown emails).
 */
export async function verifyCredentials(email: string, password: string): Promise<(PublicUser & { sessionVersion: number }) | null> {
  const user = await getUserCredentials({ email: email.trim().toLowerCase() });
  const ok = await verifyPassword(password, user?.passwordHash);
  return ok && user ? { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion } : null;
}

/** Replaces the password after checking the current one; every session of the user ends with it. */
export async function changePassword({ userId, currentPassword, newPassword }: { userId: string; currentPassword: string; newPassword: string }): Promise<void> {
  if (!(await verifyPassword(currentPassword, await getPasswordHash({ id: userId })))) {
    throw new AppError("bad_request:account", "The current password is wrong.", { field: "currentPassword" });
  }
  await bumpSessionVersion({ id: userId, passwordHash: await hashPassword(newPassword) });
}

/** For the CLI: the existing user (checking the password when one is given), or a new one. */
export async function findOrCreateUser(
  input: { email: string; password?: string },
): Promise<{ user: PublicUser; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const existing = await getUserCredentials({ email });
  if (existing) {
    if (input.password !== undefined && !(await verifyPassword(input.password, existing.passwordHash))) {
      throw new AppError("unauthorized:account", "Wrong password for the existing account.");
    }
    return { user: { id: existing.id, email: existing.email, name: existing.name }, created: false };
  }
  if (input.password === undefined) {
    throw new AppError("bad_request:account", "No account with this email: pass --password to create one.", { field: "password" });
  }
  return { user: await createUser({ email, password: input.password }), created: true };
}

/** Whether the user administers the installation (the first account, or made one with `npm run token -- admin`). */
export async function isAdmin(userId: string): Promise<boolean> {
  return userIsAdmin({ id: userId });
}
