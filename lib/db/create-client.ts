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
import type { SqlDriverAdapter } from "@prisma/driver-adapter-utils";

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

/**
 * The driver adapter a client connected, and its placeholder style (lib/db/direct.ts writes through
 * it): kept on the client object under a global symbol, because the server's start and its routes
 * are separate bundles with their own copy of this module, sharing one client (lib/db/client.ts).
 */
const ADAPTER = Symbol.for("quarry.connectedAdapter");
type Connected = { adapter: SqlDriverAdapter; placeholders: "?" | "$n" };

function rememberAdapter(client: object, adapter: SqlDriverAdapter, placeholders: "?" | "$n"): void {
  (client as { [ADAPTER]?: Connected })[ADAPTER] = { adapter, placeholders };
}

/** The adapter Prisma connected for `client` (undefined until its first statement). */
export const connectedAdapter = (client: Db): Connected | undefined => (client as { [ADAPTER]?: Connected })[ADAPTER];

/** A driver adapter factory whose connections go through `then` first (the pragmas, remembering the adapter). */
function onConnect<F extends { connect(): Promise<SqlDriverAdapter> }>(factory: F, then: (adapter: SqlDriverAdapter) => Promise<void> | void): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    await then(adapter);
    return adapter;
  };
  return factory;
}

/** Not server-only so that the CLI and test scripts can build their own client. */
export function createPrismaClient(databaseUrl = getEnv().DATABASE_URL): Db {
  // Each client remembers the adapter it connects: the hottest writes go straight to it (lib/db/direct.ts).
  if (databaseProvider(databaseUrl) === "postgresql") {
    const client: PrismaPgClient = new PrismaPgClient({ adapter: onConnect(new PrismaPg({ connectionString: databaseUrl }), (adapter) => rememberAdapter(client, adapter, "$n")) });
    // Same model API (see Db above); the two classes differ only in provider-specific filter options.
    return client as unknown as Db;
  }
  const file = resolveSqlitePath(databaseUrl);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const factory = onConnect(new PrismaBetterSQLite3({ url: file }), async (adapter) => {
    if (file !== ":memory:") await adapter.executeScript(PRAGMAS);
    rememberAdapter(client, adapter, "?");
  });
  const client: Db = new PrismaClient({ adapter: factory });
  return client;
}
