// Unit-test support: a fresh migrated SQLite file and a secret, set in the environment before the
// modules that read them are imported (so tests import those modules dynamically).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

export function useTestDatabase(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-test-"));
  const file = path.join(dir, "test.db");
  const sqlite = new Database(file);
  const migrations = path.resolve(import.meta.dirname, "../../prisma/migrations");
  for (const name of fs.readdirSync(migrations).sort()) {
    const sql = path.join(migrations, name, "migration.sql");
    if (fs.existsSync(sql)) sqlite.exec(fs.readFileSync(sql, "utf8"));
  }
  sqlite.close();
  process.env.DATABASE_URL = `file:${file}`;
  process.env.AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
  return dir;
}
