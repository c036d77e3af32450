import bcrypt from "bcryptjs";

const COST = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

// Compared against when the email is unknown, so that a missing account takes as long as a wrong password.
const DUMMY_HASH = "$2b$12$L2WffRaP7CeQU9h9XM40ou3HVBrzRbHpFUvKRvfhdycZBavB7ysZK";

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(password, DUMMY_HASH).catch(() => false);
    return false;
  }
  return bcrypt.compare(password, hash);
}
