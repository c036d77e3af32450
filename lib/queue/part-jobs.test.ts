// Part jobs on BullMQ: ensure adds the jobs a part lacks and leaves alone one it has. Children just
// created (`created`) are added without a lookup: a child whose job exists (waiting, running or
// ended) is still left alone (a retried node job hands its children off again). A run's rank is read
// once a second, not at every hand-off.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { countStatements, useTestDatabase } from "../db/test-support";
import { redisOrSkip, testRedisPrefix, TEST_REDIS_URL } from "../../test/helpers/redis";

const skip = await redisOrSkip();
await useTestDatabase();
process.env.REDIS_URL = TEST_REDIS_URL;
process.env.REDIS_KEY_PREFIX = testRedisPrefix("part-jobs");
const { bullTreeNodes } = await import("./part-jobs");
const { treeNodesQueue, nodeJobId } = await import("./connection");

after(async () => {
  if (skip) return;
  const q = treeNodesQueue();
  await q.obliterate({ force: true });
  // BullMQ leaves the connection it was given open.
  const connection = q.opts.connection as { disconnect(): void };
  await q.close();
  connection.disconnect();
});

test("ensure adds missing part jobs and leaves existing ones alone, looked up or (created) not", { skip }, async () => {
  const q = treeNodesQueue();
  const research = `research-${Date.now()}`;
  // A part that has a job already (waiting on a delay here, as a running or an ended one would be found).
  await q.add("part", { researchId: "an earlier attempt", queryId: "old" }, { jobId: nodeJobId("old"), delay: 60_000 });

  // The run's rank (its user's live runs) is read once for both hand-offs, not once each.
  const rankReads = countStatements(/AS "live"/);
  const looked = await bullTreeNodes.ensure(research, ["a", "old"], { replaceEnded: false });
  assert.deepEqual(Object.fromEntries(looked), { a: "running", old: "running" });
  assert.ok(await q.getJob(nodeJobId("a")), "a's job was added");

  const created = await bullTreeNodes.ensure(research, ["b", "c", "old", "a"], { replaceEnded: false, level: 2, created: true });
  assert.deepEqual([...created.keys()].sort(), ["a", "b", "c", "old"]);
  rankReads.stop();
  assert.equal(rankReads.count, 1, "the run's rank read once");
  for (const id of ["b", "c"]) {
    const job = await q.getJob(nodeJobId(id));
    assert.ok(job, `${id}'s job was added`);
    assert.deepEqual(job.data, { researchId: research, queryId: id });
  }
  const old = await q.getJob(nodeJobId("old"));
  assert.equal(await old!.getState(), "delayed", "the existing job was left as it was");
  assert.equal(old!.data.researchId, "an earlier attempt");
  // Added without a lookup, still at their level's priority: deeper parts go first (a lower number).
  const [a, b] = await Promise.all([q.getJob(nodeJobId("a")), q.getJob(nodeJobId("b"))]);
  assert.ok(b!.opts.priority! < a!.opts.priority!, `level 2 (${b!.opts.priority}) before level 1 (${a!.opts.priority})`);
});
