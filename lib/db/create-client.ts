// The one place that turns DATABASE_URL into a Prisma client: `file:` → SQLite through
// better-sqlite3 (the embedded default), `postgres://` → PostgreSQL through pg.
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";
import { PrismaClient as PrismaPgClient } from "../generated/prisma-pg/client";
import { getEnv } from "../env";
import { databaseProvider, resolveSqlitePath } from "./database-url";

/**
 * The app's client type. Both generated clients (lib/generated/prisma from prisma/schema.prisma,
 * lib/generated/prisma-pg from its generated PostgreSQL copy) have the same models and the same model
 * API, so the rest of the app uses the SQLite client's types for either. What only one provider has
 * (PostgreSQL's `mode: "insensitive"`) goes through the helpers in lib/db/portable.ts.
 */
export type Db = PrismaClient;

// WAL lets readers (the stream's snapshots, GET) run beside the runner's writes, and with
// synchronous=NORMAL a commit no longer waits for an fsync: the runner makes thousands of small
// commits, each of which blocked the event loop. A crashed process still loses no committed write;
// only a power cut can lose the last few. busy_timeout: the CLI and the server may share the file.
const PRAGMAS = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;";

/** The better-sqlite3 adapter, with the pragmas applied on connect. */
function sqliteAdapter(file: string): PrismaBetterSQLite3 {
  const factory = new PrismaBetterSQLite3({ url: file });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    if (file !== ":memory:") await adapter.executeScript(PRAGMAS);
    return adapter;
  };
  return factory;
}

/** Not server-only so that the CLI and test scripts can build their own client. */
export function createPrismaClient(databaseUrl = getEnv().DATABASE_URL): Db {
  if (databaseProvider(databaseUrl) === "postgresql") {
    const client = new PrismaPgClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
    // Same model API (see Db above); the two classes differ only in provider-specific filter options.
    return client as unknown as Db;
  }
  const file = resolveSqlitePath(databaseUrl);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  return new PrismaClient({ adapter: sqliteAdapter(file) });
}
