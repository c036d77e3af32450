// What DATABASE_URL names: a SQLite file (`file:`, the embedded default) or a PostgreSQL database
// (`postgres://` / `postgresql://`). Used by the app's client, prisma.config.ts and the scripts.
import path from "node:path";

export type DbProvider = "sqlite" | "postgresql";

export function databaseProvider(databaseUrl: string): DbProvider {
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgresql";
  throw new Error("DATABASE_URL must be a SQLite file: URL such as file:./data/quarry.db, or a postgres:// URL");
}

/**
 * better-sqlite3 opens relative paths from the working directory, which differs between
 * `next start`, the CLI and tests; resolve `file:` URLs against the project root instead.
 */
export function resolveSqlitePath(databaseUrl: string, root = process.cwd()): string {
  const raw = databaseUrl.replace(/^file:/, "");
  if (raw === ":memory:") return raw;
  return path.isAbsolute(raw) ? raw : path.resolve(root, raw);
}

/** The same PostgreSQL server with another database name (scratch and test databases). */
export function withDatabase(postgresUrl: string, database: string): string {
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
