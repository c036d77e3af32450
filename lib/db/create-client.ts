import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../generated/prisma/client";
import { getEnv } from "../env";
import { resolveSqlitePath } from "./database-url";

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
export function createPrismaClient(databaseUrl = getEnv().DATABASE_URL): PrismaClient {
  const file = resolveSqlitePath(databaseUrl);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  return new PrismaClient({ adapter: sqliteAdapter(file) });
}
