// The run event log on Redis (queue mode): a batch of events is one stream entry; a reader gets every
// event after its cursor once and in order, across batches, and the head is the last event's number.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { redisOrSkip, testRedisPrefix, TEST_REDIS_URL } from "../../test/helpers/redis";

const skip = await redisOrSkip();
process.env.REDIS_URL = TEST_REDIS_URL;
process.env.REDIS_KEY_PREFIX = testRedisPrefix("event-log");
const { eventLog } = await import("./log");
const { redis, redisKey } = await import("../redis");

const event = (seq: number) => ({ seq, type: seq % 2 ? "query.status" : "page.status", data: { n: seq, text: `é\u2028"${seq}"` }, at: 1_700_000_000_000 + seq });

describe("the Redis event log", { skip }, () => {
  after(async () => {
    const keys = await redis().keys(`${process.env.REDIS_KEY_PREFIX}:*`);
    if (keys.length > 0) await redis().del(...keys);
    redis().disconnect();
  });

  test("each append is one entry; reads from any cursor give every later event once, in order", async () => {
    const log = eventLog();
    const runId = `run-${Date.now()}`;
    assert.deepEqual(await log.head(runId), { seq: 0, cursor: "0-0" });
    await log.append(runId, [1, 2, 3].map(event));
    const afterFirst = await log.head(runId);
    assert.equal(afterFirst.seq, 3, "the head is the batch's last event");
    await log.append(runId, [4].map(event));
    await log.append(runId, [5, 6, 7, 8].map(event));
    assert.equal(await redis().xlen(redisKey(`run-events:${runId}`)), 3, "one entry per append");

    const all = await log.read(runId, "0-0");
    assert.deepEqual(all.events, [1, 2, 3, 4, 5, 6, 7, 8].map(event));
    const later = await log.read(runId, afterFirst.cursor);
    assert.deepEqual(later.events.map((e) => e.seq), [4, 5, 6, 7, 8], "after the head read before: the rest, nothing twice");
    assert.deepEqual((await log.read(runId, later.cursor)).events, [], "nothing after the last cursor");
    assert.equal((await log.head(runId)).seq, 8);
  });

  test("appended out of number order (two workers), the head is the highest number, and reads keep the append order", async () => {
    const log = eventLog();
    const runId = `run-inverted-${Date.now()}`;
    await log.append(runId, [1, 2].map(event));
    await log.append(runId, [5, 6].map(event));
    await log.append(runId, [3, 4].map(event));
    const head = await log.head(runId);
    assert.equal(head.seq, 6, "the snapshot read after this head holds 5 and 6 too");
    assert.deepEqual((await log.read(runId, "0-0")).events.map((e) => e.seq), [1, 2, 5, 6, 3, 4]);
    await log.append(runId, [7].map(event));
    assert.deepEqual((await log.read(runId, head.cursor, 4)).events.map((e) => e.seq), [7], "a later number missing is appended after the cursor");
  });

  test("an entry of the earlier format (one event in fields) is still read", async () => {
    const log = eventLog();
    const runId = `run-old-${Date.now()}`;
    const e = event(1);
    await redis().xadd(redisKey(`run-events:${runId}`), "*", "seq", String(e.seq), "type", e.type, "data", JSON.stringify(e.data), "at", String(e.at));
    await log.append(runId, [2, 3].map(event));
    assert.deepEqual((await log.read(runId, "0-0")).events, [1, 2, 3].map(event));
    assert.equal((await log.head(runId)).seq, 3);
  });
});
