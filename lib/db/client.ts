// Not marked "server-only": the CLI (scripts/research-cli.ts) runs the engine in-process with this client.
import { createPrismaClient, type Db } from "./create-client";

// One client per process; cached on globalThis so that dev-mode module reloads reuse it.
const globalForDb = globalThis as unknown as { quarryDb?: Db };

export const db: Db = globalForDb.quarryDb ?? createPrismaClient();
globalForDb.quarryDb = db;
