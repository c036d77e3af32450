import path from "node:path";

/** The embedded default: a SQLite file under data/ in the project directory. */
export const DEFAULT_DATABASE_URL = "file:./data/quarry.db";

/**
 * better-sqlite3 opens relative paths from the working directory, which differs between
 * `next start`, the CLI and tests; resolve `file:` URLs against the project root instead.
 */
export function resolveSqlitePath(databaseUrl: string, root = process.cwd()): string {
  const raw = databaseUrl.replace(/^file:/, "");
  if (raw === ":memory:") return raw;
  return path.isAbsolute(raw) ? raw : path.resolve(root, raw);
}

export function isSqliteUrl(databaseUrl: string): boolean {
  return databaseUrl.startsWith("file:");
}
