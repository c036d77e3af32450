// Connections to Redis (REDIS_URL: queue mode), the one module that makes them: one shared per
// purpose per process, on globalThis like the other process-wide state ("commands" for ordinary
// commands; "subscriber" is in subscribe mode), and connections of their own for BullMQ.
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { getEnv } from "./env";

type Purpose = "commands" | "subscriber";
const globalForRedis = globalThis as unknown as { quarryRedis?: Map<Purpose, Redis> };

export function redisEnabled(): boolean {
  return getEnv().REDIS_URL !== undefined;
}

/** This process's shared connection for a purpose. */
export function redis(purpose: Purpose = "commands"): Redis {
  const connections = (globalForRedis.quarryRedis ??= new Map());
  let connection = connections.get(purpose);
  if (!connection) connections.set(purpose, (connection = newRedisConnection(purpose)));
  return connection;
}

/**
 * A connection of its own to REDIS_URL (BullMQ's queues and workers: a worker's blocking reads need
 * one; `maxRetriesPerRequest: null` as BullMQ requires). `name` says whose in the error log.
 */
export function newRedisConnection(name: string): Redis {
  const url = getEnv().REDIS_URL;
  if (!url) throw new Error("REDIS_URL is not set: queue mode and the shared limits need Redis");
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  connection.on("error", (error: Error) => console.error(`[quarry] Redis (${name}):`, error.message));
  return connection;
}

/** ioredis statuses of a connection on its way to its first (or next) answer: worth a short wait. */
const CONNECTING = new Set(["wait", "connecting", "connect"]);

/**
 * Whether `connection` can carry a command now: true when it is ready; while it makes its first
 * connection, waits for it up to `waitMs`; false at once when it is reconnecting or closed (Redis
 * down or unreachable: a command would wait in its offline queue until Redis came back).
 */
export async function redisReady(connection: Redis, waitMs: number): Promise<boolean> {
  if (connection.status === "ready") return true;
  if (!CONNECTING.has(connection.status)) return false;
  if (connection.status === "wait") void connection.connect().catch(() => {});
  return new Promise<boolean>((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      connection.off("ready", onReady);
      connection.off("close", onClose);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(connection.status === "ready"), waitMs);
    connection.once("ready", onReady);
    connection.once("close", onClose);
  });
}

/**
 * Calls `onMessage` with each message published on one of `channels`, over this process's shared
 * subscriber connection (a failed subscription is logged as `what`).
 */
export function onRedisMessages(channels: string[], what: string, onMessage: (channel: string, message: string) => void): void {
  const subscriber = redis("subscriber");
  subscriber.on("message", (channel: string, message: string) => {
    if (channels.includes(channel)) onMessage(channel, message);
  });
  void subscriber.subscribe(...channels).catch((error: unknown) => console.error(`[quarry] could not subscribe to ${what}:`, error));
}

/** A Redis key or channel of this deployment: `<REDIS_KEY_PREFIX>:<name>`. */
export function redisKey(name: string): string {
  return `${getEnv().REDIS_KEY_PREFIX}:${name}`;
}

type ScriptCommand = (...keysAndArgs: (string | number)[]) => Promise<unknown>;

/**
 * A Lua script on the shared commands connection, sent by its SHA (EVALSHA; ioredis loads it the first
 * time): EVAL would send the script and have Redis hash it on every call.
 */
export function redisScript(lua: string, numberOfKeys: number): ScriptCommand {
  const name = `quarry_${createHash("sha1").update(lua).digest("hex").slice(0, 16)}`;
  return (...keysAndArgs) => {
    const client = redis() as Redis & Record<string, ScriptCommand | undefined>;
    if (typeof client[name] !== "function") client.defineCommand(name, { numberOfKeys, lua });
    return client[name]!(...keysAndArgs);
  };
}
