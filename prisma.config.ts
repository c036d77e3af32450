// Prisma CLI configuration. `engine: "js"` makes the CLI use its bundled Wasm schema engine
// with our driver adapter, so migrations need no downloaded binary (see README, "Database").
import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { DEFAULT_DATABASE_URL, isSqliteUrl, resolveSqlitePath } from "./lib/db/database-url";

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "checksum" TEXT NOT NULL,
  "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL,
  "logs" TEXT,
  "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

// Two bugs of @prisma/adapter-better-sqlite3 6.19 under the CLI: a migration arrives as one
// multi-statement executeRaw (which better-sqlite3 rejects), and `migrate dev` on a new file
// expects _prisma_migrations to exist already.
async function patchConnection(adapter: SqlDriverAdapter): Promise<SqlDriverAdapter> {
  await adapter.executeScript(MIGRATIONS_TABLE);
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    if (query.args.length === 0 && query.sql.includes(";")) {
      await adapter.executeScript(query.sql);
      return 0;
    }
    return executeRaw(query);
  };
  return adapter;
}

function sqliteFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const file = resolveSqlitePath(url);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const inner = new PrismaBetterSQLite3({ url: file });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => patchConnection(await inner.connect()),
    connectToShadowDb: async () => patchConnection(await inner.connectToShadowDb()),
  };
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
    if (!isSqliteUrl(url)) {
      throw new Error(`DATABASE_URL must be a SQLite file: URL (got a different scheme)`);
    }
    return sqliteFactory(url);
  },
});
