// The one server secret: signs session cookies (Auth.js derives its own key) and, through a derived
// key, API tokens. AUTH_SECRET wins; otherwise the embedded default keeps a generated secret in
// AUTH_SECRET_FILE (mode 0600), which `npm start` creates on first start (scripts/auth-secret.mjs).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "../env";

let cached: string | undefined;

/** Reads the secret file, or creates it (exclusively, mode 0600) when it does not exist. */
export function readOrCreateSecretFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(48).toString("base64url");
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process created it between our read and write: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw error;
  }
}

export function getAuthSecret(): string {
  if (cached) return cached;
  const env = getEnv();
  if (env.AUTH_SECRET) return (cached = env.AUTH_SECRET);
  const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.AUTH_SECRET_FILE);
  let secret: string;
  if (env.NODE_ENV === "production") {
    // Production never invents a secret silently; the start script creates the file on purpose.
    try {
      secret = fs.readFileSync(file, "utf8").trim();
    } catch {
      throw new Error(
        `AUTH_SECRET is required in production: set it to 32+ random characters, or start with \`npm start\`, which creates ${env.AUTH_SECRET_FILE}.`,
      );
    }
  } else {
    secret = readOrCreateSecretFile(file);
  }
  if (secret.length < 32) throw new Error(`${env.AUTH_SECRET_FILE} must hold at least 32 characters.`);
  return (cached = secret);
}

/** The last key derived, and from what (every bearer request verifies with it). */
let derivedKey: { secret: string; key: Uint8Array } | undefined;

/** HS256 key for API tokens, derived so that it never equals the session-cookie key material. */
export function apiTokenKey(secret = getAuthSecret()): Uint8Array {
  if (derivedKey?.secret !== secret) derivedKey = { secret, key: new Uint8Array(crypto.hkdfSync("sha256", secret, "quarry", "quarry api token v1 (HS256)", 32)) };
  return derivedKey.key;
}

/** Test hook. */
export function resetAuthSecretCache(): void {
  cached = undefined;
}
