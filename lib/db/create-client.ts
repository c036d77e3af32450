import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../generated/prisma/client";
import { getEnv } from "../env";
import { resolveSqlitePath } from "./database-url";

export type Db = PrismaClient;

/** Not server-only so that the CLI and test scripts can build their own client. */
export function createPrismaClient(databaseUrl = getEnv().DATABASE_URL): PrismaClient {
  const file = resolveSqlitePath(databaseUrl);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const adapter = new PrismaBetterSQLite3({ url: file });
  return new PrismaClient({ adapter });
}
