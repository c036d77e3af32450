// Redis for the tests of queue mode (events across instances, fleet-wide limits): at TEST_REDIS_URL,
// by default redis://127.0.0.1:6379. Without it those tests are skipped with the reason, except on CI
// (CI=true), where they fail: CI has Redis, and a suite that silently skipped would prove nothing.
import { Redis } from "ioredis";

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

/** Why Redis cannot be used, or null when it answers. */
export async function redisUnavailable(): Promise<string | null> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    client.disconnect();
  }
}

/**
 * `false` when Redis answers; else the skip reason (outside CI). On CI a missing Redis throws, so the
 * suite fails with the reason.
 */
export async function redisOrSkip(): Promise<false | string> {
  const unavailable = await redisUnavailable();
  if (unavailable === null) return false;
  const reason = `Redis at ${TEST_REDIS_URL} does not answer (${unavailable})`;
  if (process.env.CI === "true") throw new Error(`${reason}: CI requires Redis for the queue-mode tests`);
  return `${reason}: start Redis (or set TEST_REDIS_URL) to run this`;
}

/** A key prefix of its own for one test run: parallel test files on one Redis stay apart. */
export const testRedisPrefix = (name: string) => `quarry-test-${name}-${process.pid}-${Date.now()}`;
