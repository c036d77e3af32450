// The fleet-wide limit against a real Redis: two semaphores stand for two processes. The limit holds
// for both together, a lowered limit (the back-off on 429) holds for both, and the slots of a process
// that died holding them come back when their leases expire. A process reuses the leases it released
// while nobody waited, without Redis, and gives them back as soon as another process is refused.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { redisOrSkip, testRedisPrefix, TEST_REDIS_URL } from "../test/helpers/redis";

const skip = await redisOrSkip();
process.env.REDIS_URL = TEST_REDIS_URL;
process.env.REDIS_KEY_PREFIX = testRedisPrefix("fleet");
const { FleetSemaphore } = await import("./fleet-semaphore");
const { redis } = await import("./redis");
const { sleep } = await import("./concurrency");

/** Work that holds its slot for `ms`; `peak` is the most that held one at once. */
function holding(ms: number) {
  const held = {
    now: 0,
    peak: 0,
    work: async () => {
      held.now++;
      held.peak = Math.max(held.peak, held.now);
      await sleep(ms);
      held.now--;
    },
  };
  return held;
}

describe("FleetSemaphore", { skip }, () => {
  test("the limit holds for every process together", async () => {
    const a = new FleetSemaphore("together", 3);
    const b = new FleetSemaphore("together", 3);
    const held = holding(15);
    await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).run(held.work)));
    assert.equal(held.peak, 3, "at most 3 at once across both (and 3 were reached)");
  });

  test("a lowered limit holds for the other process too", async () => {
    const a = new FleetSemaphore("lowered", 4);
    const b = new FleetSemaphore("lowered", 4);
    a.setLimit(1);
    await sleep(50);
    const held = holding(10);
    await Promise.all(Array.from({ length: 6 }, () => b.run(held.work)));
    assert.equal(held.peak, 1);
    assert.equal(b.limit, 1, "the other process reads the shared limit");
  });

  test("slots held by a process that died come back when their leases expire", async () => {
    const dead = new FleetSemaphore("leases", 2, 600);
    await dead.acquire();
    await dead.acquire();
    // The process dies: no release, no renewal.
    (dead as unknown as { held: Set<string> }).held.clear();
    const alive = new FleetSemaphore("leases", 2, 600);
    const started = Date.now();
    const release = await alive.acquire(AbortSignal.timeout(5_000));
    const waited = Date.now() - started;
    release();
    assert.ok(waited >= 400 && waited < 3_000, `a slot came back after the lease (${waited} ms)`);
  });

  test("a holder that lives keeps its slot past the lease", async () => {
    const holder = new FleetSemaphore("renewed", 1, 600);
    const release = await holder.acquire();
    const other = new FleetSemaphore("renewed", 1, 600);
    await assert.rejects(other.acquire(AbortSignal.timeout(1_500)), "still held after 2.5 leases");
    release();
    (await other.acquire(AbortSignal.timeout(1_000)))();
  });

  test("a release is announced only while some process waits, and wakes it", async () => {
    const { redisKey, newRedisConnection } = await import("./redis");
    const channel = redisKey("limits:announced:released");
    const listener = newRedisConnection("test listener");
    let announced = 0;
    let sentinels = 0;
    listener.on("message", (_channel: string, message: string) => (message === "sentinel" ? sentinels++ : announced++));
    await listener.subscribe(channel);
    /** Every release sent before it has run and its message, if any, has arrived (one connection, one channel: in order). */
    const settled = async () => {
      const seen = sentinels;
      await redis().publish(channel, "sentinel");
      while (sentinels === seen) await sleep(5);
    };
    try {
      const a = new FleetSemaphore("announced", 1);
      const b = new FleetSemaphore("announced", 1);
      for (let i = 0; i < 5; i++) (await a.acquire())();
      await settled();
      assert.equal(announced, 0, "nobody waited: no message");
      const held = await a.acquire();
      const waiting = b.acquire(AbortSignal.timeout(5_000));
      while ((await redis().exists(redisKey("limits:announced:waiting"))) === 0) await sleep(5); // b was refused
      held();
      (await waiting)();
      await settled();
      assert.ok(announced >= 1, "the release while b waited was announced");
    } finally {
      listener.disconnect();
    }
  });

  test("a lease released while nobody waits is taken again without a Redis command, and goes back after its idle time", async () => {
    const { redisKey } = await import("./redis");
    const holders = redisKey("limits:warm:holders");
    const a = new FleetSemaphore("warm", 2, 15_000, 1_000);
    (await a.acquire())();
    const client = redis() as unknown as { sendCommand: (...args: unknown[]) => unknown };
    const send = client.sendCommand;
    let commands = 0;
    client.sendCommand = (...args: unknown[]) => (commands++, send.apply(client, args));
    try {
      for (let i = 0; i < 10; i++) (await a.acquire())();
    } finally {
      client.sendCommand = send;
    }
    assert.equal(commands, 0, "ten acquires and releases in a row sent nothing to Redis");
    assert.equal(await redis().zcard(holders), 1, "the idle lease still counts against the fleet's limit");
    const deadline = Date.now() + 6_000;
    while ((await redis().zcard(holders)) > 0 && Date.now() < deadline) await sleep(20);
    assert.equal(await redis().zcard(holders), 0, "given back after its idle time");
  });

  test("acquires asked for together take their slots in one script, and releases that come together free them in one", async () => {
    const { redisKey } = await import("./redis");
    const holders = redisKey("limits:batched:holders");
    const slotsHeld = () => redis().zcard(holders);
    // Loads the scripts (a first EVALSHA is answered NOSCRIPT and sent again as EVAL).
    const warm = new FleetSemaphore("batched-warm", 1, 15_000, 0);
    (await warm.acquire())();
    while ((await redis().zcard(redisKey("limits:batched-warm:holders"))) > 0) await sleep(5);
    // Kept idle for 0 ms: each release goes back to Redis, all of them in the same turn of the loop.
    const a = new FleetSemaphore("batched", 4, 15_000, 0);
    const b = new FleetSemaphore("batched", 4, 15_000, 0);
    const client = redis() as unknown as { sendCommand: (...args: unknown[]) => unknown };
    const send = client.sendCommand;
    const sent: string[] = [];
    // This semaphore's commands only: another test's semaphore renews its leases through the same client.
    const ours = (command: { args?: unknown[] }) => (command.args ?? []).some((a) => String(a).includes(holders));
    client.sendCommand = (...args: unknown[]) => {
      const command = args[0] as { name?: string; args?: unknown[] };
      if (ours(command)) sent.push(String(command.name));
      return send.apply(client, args);
    };
    const scripts = () => sent.filter((name) => name === "evalsha").length;
    try {
      const first = await Promise.all(Array.from({ length: 4 }, () => a.acquire()));
      assert.equal(sent.length, 1, `four acquires at once: one script (sent: ${sent.join(", ")})`);
      assert.equal(await slotsHeld(), 4);
      sent.length = 0;
      for (const release of first) release();
      while ((await slotsHeld()) > 0) await sleep(5);
      assert.equal(scripts(), 1, "four releases in one turn: one script");

      // Another process holds 3 of the 4 slots; three acquires at once here: one script grants one and
      // refuses two, which wait, and take the others' slots once they are released.
      const others = await Promise.all(Array.from({ length: 3 }, () => b.acquire()));
      sent.length = 0;
      let granted = 0;
      // The scripts sent when the first grant came (the refused retry later: RETRY_MS after the answer).
      let scriptsAtGrant = 0;
      const mine = Array.from({ length: 3 }, () =>
        a.acquire(AbortSignal.timeout(5_000)).then((release) => {
          if (granted++ === 0) scriptsAtGrant = scripts();
          return release;
        }),
      );
      while (granted === 0) await sleep(5);
      assert.equal(scriptsAtGrant, 1, `the three asked in one script (sent: ${sent.join(", ")})`);
      await sleep(50);
      assert.equal(granted, 1, "one of the three got the one free slot");
      assert.equal(await slotsHeld(), 4, "the limit held for a batch larger than the free slots");
      for (const release of others) release();
      for (const release of await Promise.all(mine)) release();
    } finally {
      client.sendCommand = send;
    }
    const deadline = Date.now() + 2_000;
    while ((await slotsHeld()) > 0 && Date.now() < deadline) await sleep(5);
    assert.equal(await slotsHeld(), 0, "every slot freed");
  });

  test("another process refused a slot makes this one give back its idle lease at once", async () => {
    // Kept idle for 10 s: without the hand-back the other process would wait that long.
    const a = new FleetSemaphore("handback", 1, 15_000, 10_000);
    const b = new FleetSemaphore("handback", 1, 15_000, 10_000);
    (await a.acquire())();
    const started = Date.now();
    (await b.acquire(AbortSignal.timeout(8_000)))();
    const waited = Date.now() - started;
    assert.ok(waited < 3_000, `b got the slot ${waited} ms after asking`);
  });

  test("an idle lease that Redis no longer has is not reused: the next acquire takes a real slot", async () => {
    const { redisKey } = await import("./redis");
    const holders = redisKey("limits:phantom:holders");
    // Renewed every 200 ms; kept idle for 10 s.
    const a = new FleetSemaphore("phantom", 1, 600, 10_000);
    (await a.acquire())();
    assert.equal(await redis().zcard(holders), 1);
    await redis().del(holders); // lost: a Redis restart, or leases that expired while the process stalled
    await sleep(500); // a renewal finds it gone
    const release = await a.acquire();
    assert.equal(await redis().zcard(holders), 1, "the acquire took a slot in Redis again");
    release();
  });

  test("teardown", () => {
    redis("commands").disconnect();
    redis("subscriber").disconnect();
  });
});
