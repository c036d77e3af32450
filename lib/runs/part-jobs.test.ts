// A run's part jobs in one process share one stop check.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sleep } from "../concurrency";
import { sharedStopWhen } from "./part-jobs";

test("the part jobs of one run share one check: one per period however many work, none once the last has ended", async () => {
  let checks = 0;
  const check = async () => {
    checks++;
    return false;
  };
  const jobs = Array.from({ length: 10 }, () => sharedStopWhen("tree:a", check, 20, "test"));
  await sleep(110);
  // One check per job would be ~50 here.
  assert.ok(checks >= 1 && checks <= 6, `checks in 110 ms at 20 ms for 10 jobs: ${checks}`);
  for (const job of jobs.slice(1)) job.dispose();
  const before = checks;
  await sleep(120);
  assert.ok(checks > before, "the last job still has its check");
  jobs[0].dispose();
  jobs[0].dispose();
  const after = checks;
  await sleep(80);
  assert.equal(checks, after, "no check once every job has ended");
});

test("a stop reaches every job of the run, and no other run's; a job that starts after it gets a check of its own", async () => {
  let stopped = false;
  let checksA = 0;
  const a1 = sharedStopWhen("tree:a", async () => (checksA++, stopped), 10, "test");
  const a2 = sharedStopWhen("tree:a", async () => (checksA++, stopped), 10, "test");
  const b = sharedStopWhen("tree:b", async () => false, 10, "test");
  stopped = true;
  await sleep(100);
  assert.ok(a1.signal.aborted && a2.signal.aborted);
  assert.equal(b.signal.aborted, false);
  const atStop = checksA;
  await sleep(40);
  assert.equal(checksA, atStop, "a stopped run's check ends");

  // Resumed: a new job of the run is not handed the old, aborted signal.
  stopped = false;
  const a3 = sharedStopWhen("tree:a", async () => stopped, 10, "test");
  await sleep(30);
  assert.equal(a3.signal.aborted, false);
  for (const job of [a1, a2, a3, b]) job.dispose();
});
