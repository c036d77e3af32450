import { configProblems, getEnv } from "./env";
import { watchSharedFolder } from "./knowledge/shared-folder";
import { runRegistry } from "./runs/engines";

/** Validates configuration (invalid values stop the start with a message naming the variable), indexes KNOWLEDGE_DOCS_PATH and resumes runs. */
export async function startServer(): Promise<void> {
  let env;
  try {
    env = getEnv();
  } catch (error) {
    console.error(`[quarry] ${(error as Error).message}`);
    process.exit(1);
  }
  for (const problem of configProblems()) {
    console.warn(`[quarry] configuration: ${problem.message}`);
  }
  // The page extraction workers load while the server finishes starting (lib/scrape/extract-pool.ts).
  const { warmExtractPool } = await import("./scrape/extract-pool");
  void warmExtractPool();
  // Temporary files of uploads that a stopped process left behind (in the background).
  const { sweepAbandonedUploads } = await import("./api/deep-research-start");
  void sweepAbandonedUploads()
    .then((removed) => removed > 0 && console.log(`[quarry] removed ${removed} abandoned upload(s) from ${env.UPLOADS_DIR}/.incoming`))
    .catch((error: unknown) => console.error("[quarry] could not sweep abandoned uploads:", error));
  if (env.KNOWLEDGE_DOCS_PATH) {
    // In the background: a large folder must not hold up the server; searches see each file once it is indexed.
    void watchSharedFolder(env.KNOWLEDGE_DOCS_PATH);
  }
  if (env.REDIS_URL && env.QUEUE_RUNS) {
    // Queue mode: this process queues runs (lib/queue/) and `npm run worker` processes execute them.
    const { enqueueRun, queueReachable, wakeRun } = await import("./queue/enqueue");
    runRegistry.dispatchTo(enqueueRun, wakeRun, queueReachable);
    console.log(`[quarry] queue mode: runs are queued in Redis (prefix ${env.REDIS_KEY_PREFIX}) for workers (npm run worker)`);
  }
  if (env.RESUME_ON_START) {
    // Runs left by a crash or a stop, and from now on those of any process that stops heartbeating.
    const resumed = await runRegistry.takeOverOrphans();
    if (resumed.length > 0) console.log(`[quarry] resuming ${resumed.length} interrupted run(s): ${resumed.join(", ")}`);
    runRegistry.startSweeping();
  }
}
