// Prisma CLI configuration. `engine: "js"` makes the CLI use its bundled Wasm schema engine
// with our driver adapter, so migrations need no downloaded binary (see docs/development.md, "Database schema changes").
// DATABASE_URL picks the schema, its migrations and the adapter: `file:` → prisma/schema.prisma
// (SQLite), `postgres://` → prisma/postgres/schema.prisma (generated from it, PostgreSQL).
import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { DEFAULT_DATABASE_URL } from "./lib/env";
import { databaseProvider, resolveSqlitePath, withDatabase } from "./lib/db/database-url";
import { loadDotEnv } from "./scripts/load-env.mjs";

// With a config file Prisma reads no .env of its own: the installation's, as every script does.
loadDotEnv(import.meta.dirname);

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

// @prisma/adapter-pg 6.19 under the CLI: the schema engine reads catalog columns of types `name`
// (OID 19) and `"char"` (OID 18), which the adapter cannot map ("Column type 'name' could not be
// deserialized"); both arrive as strings, so they are reported as text (OID 25). Patched on the shared
// prototype so that transactions' connections get it too; this file runs in the CLI only.
function patchPgResults(adapter: SqlDriverAdapter): void {
  type Queryable = { performIO(query: unknown): Promise<{ fields: { dataTypeID: number }[] }>; quarryPatched?: boolean };
  const proto = Object.getPrototypeOf(Object.getPrototypeOf(adapter)) as Queryable;
  if (proto.quarryPatched) return;
  const performIO = proto.performIO;
  proto.performIO = async function (this: Queryable, query: unknown) {
    const result = await performIO.call(this, query);
    for (const field of result?.fields ?? []) if (field.dataTypeID === 19 || field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  };
  proto.quarryPatched = true;
}

async function onMaintenanceDb(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates the database of `url` if it does not exist yet (`npm start` on a new server). */
async function ensurePgDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code !== "3D000") throw error; // 3D000: database does not exist
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    await onMaintenanceDb(url, `CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    return;
  } finally {
    await client.end().catch(() => {});
  }
}

// Its shadow database handling ignores the shadow database when a connection string is given (the
// migrations replay into the app's own database) and drops the shadow database while still connected:
// create a scratch database here, and drop it after the connection is closed.
function postgresFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  // allowExitOnIdle: the CLI does not close the pool, and would wait out its idle timeout (10 s).
  const inner = new PrismaPg({ connectionString: url, allowExitOnIdle: true });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => {
      await ensurePgDatabase(url);
      const adapter = await inner.connect();
      patchPgResults(adapter);
      return adapter;
    },
    connectToShadowDb: async () => {
      const shadow = `quarry_shadow_${process.pid}_${Date.now()}`;
      await onMaintenanceDb(url, `CREATE DATABASE "${shadow}"`);
      const adapter = await new PrismaPg({ connectionString: withDatabase(url, shadow), allowExitOnIdle: true }).connect();
      patchPgResults(adapter);
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await onMaintenanceDb(url, `DROP DATABASE IF EXISTS "${shadow}" WITH (FORCE)`);
      };
      return adapter;
    },
  };
}

const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const postgres = databaseProvider(url) === "postgresql";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? path.join("prisma", "postgres", "schema.prisma") : path.join("prisma", "schema.prisma"),
  async adapter() {
    return postgres ? postgresFactory(url) : sqliteFactory(url);
  },
});
