// Connections to Redis (REDIS_URL: queue mode), one per purpose per process, on globalThis like the
// other process-wide state. "commands" for ordinary commands; "subscriber" is in subscribe mode.
import { Redis } from "ioredis";
import { getEnv } from "./env";

type Purpose = "commands" | "subscriber";
const globalForRedis = globalThis as unknown as { quarryRedis?: Map<Purpose, Redis> };

export function redisEnabled(): boolean {
  return getEnv().REDIS_URL !== undefined;
}

export function redis(purpose: Purpose = "commands"): Redis {
  const url = getEnv().REDIS_URL;
  if (!url) throw new Error("REDIS_URL is not set");
  const connections = (globalForRedis.quarryRedis ??= new Map());
  let connection = connections.get(purpose);
  if (!connection) {
    connection = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
    connection.on("error", (error: Error) => console.error(`[quarry] Redis (${purpose}):`, error.message));
    connections.set(purpose, connection);
  }
  return connection;
}

/** A Redis key or channel of this deployment: `<REDIS_KEY_PREFIX>:<name>`. */
export function redisKey(name: string): string {
  return `${getEnv().REDIS_KEY_PREFIX}:${name}`;
}
