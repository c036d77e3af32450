// Used by scripts/start.mjs: give the production server its AUTH_SECRET with no manual step.
// When AUTH_SECRET is not set, read AUTH_SECRET_FILE (default data/auth-secret), creating it with a
// random secret and mode 0600 on first start. Mirrors lib/auth/secret.ts (kept in plain JS for start.mjs).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function ensureAuthSecret(env = process.env, root = process.cwd()) {
  if (env.AUTH_SECRET && env.AUTH_SECRET.trim()) return env.AUTH_SECRET.trim();
  const file = path.resolve(root, env.AUTH_SECRET_FILE || "data/auth-secret");
  let secret;
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    secret = crypto.randomBytes(48).toString("base64url");
    try {
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
      console.log(`[quarry] generated ${path.relative(root, file)} (AUTH_SECRET for this installation)`);
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      secret = fs.readFileSync(file, "utf8").trim();
    }
  }
  env.AUTH_SECRET = secret;
  return secret;
}
