// npm run worker: a queue worker (queue mode, REDIS_URL set). Executes the runs that web processes
// queue, with the same engines, database and leases; start any number, on any machine that reaches
// the same database and Redis. The web process migrates the database; start workers after it.
// Exit codes: 0 stopped by a signal, 1 configuration error.
import path from "node:path";
import { loadDotEnv } from "./load-env.mjs";

const root = path.resolve(import.meta.dirname, "..");
loadDotEnv(root);

async function main() {
  const { dropBlankLlmVariables, getEnv, configProblems } = await import("../lib/env");
  dropBlankLlmVariables();
  let env;
  try {
    env = getEnv();
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  }
  if (!env.REDIS_URL) {
    console.error("error: REDIS_URL is not set: a worker takes its jobs from Redis (queue mode). Without it, runs execute in the web process.");
    process.exit(1);
  }
  for (const problem of configProblems()) console.warn(`[quarry] configuration: ${problem.message}`);
  const { runRegistry } = await import("../lib/runs/engines");
  const { enqueueRun, queueReachable, wakeRun } = await import("../lib/queue/enqueue");
  const { startDrTaskWorker, startRunWorker, startTreeNodeWorker } = await import("../lib/queue/worker");
  const { setPartJobs } = await import("../lib/runs/part-jobs");
  const { bullDrTasks, bullTreeNodes } = await import("../lib/queue/part-jobs");
  // Runs this worker finds orphaned (its sweep) go back to the queue, like the web process's.
  runRegistry.dispatchTo(enqueueRun, wakeRun, queueReachable);
  // A run's lease here lasts as long as its job's lock: a dead worker's run resumes on the worker that
  // takes its stalled job, without waiting for a longer lease to run out.
  runRegistry.holdLeasesFor(env.QUEUE_LOCK_MS);
  // A tree research executed here spreads its query nodes over every worker.
  setPartJobs("tree-nodes", bullTreeNodes);
  // And a Deep Research run its level's tasks.
  setPartJobs("dr-tasks", bullDrTasks);
  // The page extraction processes start before the first job: a worker's first pages must not spend
  // their scrape timeout waiting for them.
  const { warmExtractPool } = await import("../lib/scrape/extract-pool");
  await warmExtractPool();
  const worker = startRunWorker(runRegistry);
  const partWorkers = [startTreeNodeWorker(runRegistry.owner), startDrTaskWorker(runRegistry.owner)];
  await Promise.all([worker, ...partWorkers].map((w) => w.waitUntilReady()));
  console.log(`[quarry] worker ${runRegistry.owner} is taking jobs (runs ${env.QUEUE_WORKER_CONCURRENCY} and parts ${env.QUEUE_PART_CONCURRENCY} at once, prefix ${env.REDIS_KEY_PREFIX})`);
  if (env.RESUME_ON_START) {
    await runRegistry.takeOverOrphans();
    runRegistry.startSweeping();
  }
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      // Takes no new job; the runs executing here stop with the process, their leases expire and
      // their jobs (stalled) go to another worker, which resumes them from the database.
      console.log(`[quarry] worker ${runRegistry.owner}: ${signal}, stopping`);
      void Promise.all([worker, ...partWorkers].map((w) => w.close(true))).finally(() => process.exit(0));
    });
  }
}

main().catch((error: unknown) => {
  console.error("error: the worker could not start:", error);
  process.exit(1);
});
