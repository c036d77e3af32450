import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { Redis } from "ioredis";
import { redisReady } from "./redis";

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

test("redisReady: false at once for a Redis that is down, never waiting out its offline queue", async () => {
  const connection = new Redis(`redis://127.0.0.1:${await closedPort()}`, { maxRetriesPerRequest: null });
  connection.on("error", () => undefined);
  try {
    // The first connection is refused (on loopback, at once): the wait ends with it, not at its bound.
    const t0 = performance.now();
    assert.equal(await redisReady(connection, 5_000), false);
    assert.ok(performance.now() - t0 < 1_000, `answered in ${(performance.now() - t0).toFixed(0)} ms`);
    // Reconnecting from then on: false without waiting at all.
    await new Promise((r) => setTimeout(r, 50));
    const t1 = performance.now();
    assert.equal(await redisReady(connection, 5_000), false);
    assert.ok(performance.now() - t1 < 100);
  } finally {
    connection.disconnect();
  }
});
