// Queue workers (`npm run worker`) as child processes beside a TestApp, on its database and Redis
// (queue mode: REDIS_URL and REDIS_KEY_PREFIX in the app's env). `kill()` simulates a crash (SIGKILL).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import assert from "node:assert/strict";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { TestApp, waitFor } from "./app-server";
import { startFakes, type Fakes } from "../fakes";
import { queriesPerLevel } from "@/lib/explore/tree";
import { TEST_REDIS_URL } from "./redis";

export { TEST_REDIS_URL };

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * A queue-mode installation's environment for a test, under its own Redis key prefix: the fakes'
 * variables, a 2 s scrape timeout, a beat every second (a dead worker's run lease expires 3 s after
 * its last beat), small Deep Research trees and one iteration; `overrides` for the test's own.
 */
export function queueModeEnv(fakesEnv: Record<string, string>, prefix: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...fakesEnv,
    SCRAPE_TIMEOUT_MS: "2000",
    RUN_HEARTBEAT_MS: "1000",
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    LITERATURE_TREE_DEPTH: "1",
    LITERATURE_TREE_BREADTH: "2",
    MAX_AUTO_ITERATIONS: "1",
    ...overrides,
  };
}

/**
 * The end of a queue-mode test file: the processes' logs printed with QUEUE_TEST_LOGS=1, workers and
 * apps stopped (the first app last: it owns the database), the fakes stopped, and the prefix's
 * queues and keys gone from Redis.
 */
export async function tearDownQueueMode({ prefix, workers, apps, fakes }: { prefix: string; workers: TestWorker[]; apps: (TestApp | undefined)[]; fakes?: { stop(): Promise<void> } }): Promise<void> {
  if (process.env.QUEUE_TEST_LOGS === "1") {
    for (const w of workers) console.log(`--- worker ${w.name}\n${w.logs()}`);
    for (const a of apps) console.log(`--- app\n${a?.logs()}`);
  }
  for (const w of workers) await w.stop();
  for (const a of [...apps].reverse()) await a?.stop();
  await fakes?.stop();
  await clearQueuePrefix(TEST_REDIS_URL, prefix);
}

/** Removes a key prefix's queues (their jobs) and every other key under it from Redis. */
export async function clearQueuePrefix(redisUrl: string, prefix: string): Promise<void> {
  for (const name of ["runs", "tree-nodes", "dr-tasks"]) {
    const queue = new Queue(name, { connection: { url: redisUrl }, prefix });
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
  }
  const redis = new Redis(redisUrl);
  for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
  redis.disconnect();
}

export class TestWorker {
  private child?: ChildProcess;
  private output = "";
  /** Lines awaited by `nextLine`, checked as each chunk of output arrives. */
  private awaited: Array<{ pattern: RegExp; resolve: (seen: { at: number; line: string }) => void }> = [];

  private constructor(
    private readonly env: Record<string, string>,
    readonly name: string,
    private readonly nodeArgs: string[],
  ) {}

  /** Starts a worker process for `app`'s installation and waits until it takes jobs; `nodeArgs` go to its node (`--cpu-prof`…). */
  static async start(app: TestApp, name: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<TestWorker> {
    const worker = new TestWorker({ ...app.serverEnv, ...env }, name, nodeArgs);
    await worker.launch();
    return worker;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether the process runs (not killed, not exited). */
  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  logs(): string {
    return this.output;
  }

  /**
   * The next line of output matching `pattern` (from now on), with the time its chunk arrived: a
   * moment taken as the output comes, not at a later poll of the log.
   */
  nextLine(pattern: RegExp): Promise<{ at: number; line: string }> {
    return new Promise((resolve) => this.awaited.push({ pattern, resolve }));
  }

  private take(chunk: string): void {
    const at = Date.now();
    this.output += chunk;
    for (const line of chunk.split("\n")) {
      for (const w of this.awaited.filter((a) => a.pattern.test(line))) {
        this.awaited.splice(this.awaited.indexOf(w), 1);
        w.resolve({ at, line });
      }
    }
  }

  /** The run jobs of this worker's log lines "job <id> (<kind> <subject>) <event>" (not its node or task jobs' lines), by job id. */
  private runJobs(event: string): string[] {
    return [...this.output.matchAll(new RegExp(`(?<!node |task )job (\\S+) \\(\\S+ \\S+\\) ${event}`, "g"))].map((m) => m[1]);
  }

  /** The jobs this worker executed (claimed the run of and ran to its end), by job id, from its log. */
  executed(): string[] {
    return this.runJobs("executed here");
  }

  /** The jobs this worker ran one phase of and put back in the queue, once per phase, from its log. */
  handedOff(): string[] {
    return this.runJobs("ran a phase here and goes back in the queue");
  }

  /** The parked jobs this worker's parts woke (the last part at work ended), once per wake-up, from its log. */
  woken(): string[] {
    return this.runJobs("woken by its parts");
  }

  /** The jobs this worker parked while their run's parts worked, once per parking, from its log. */
  parked(): string[] {
    return this.runJobs("parked until its parts wake it");
  }

  /**
   * The run jobs this worker took up, once per processing (a look at the tree, a phase, a retry after an
   * error, a job put back by the stalled check), by job id, from its log. Each claims the run at most once.
   */
  started(): string[] {
    return this.runJobs("started, attempt");
  }

  /** Whether this worker is processing the run job now (taken up, and neither parked, handed off, ended nor failed since). */
  processing(jobId: string): boolean {
    const count = (ids: string[]) => ids.filter((j) => j === jobId).length;
    const failed = [...this.output.matchAll(/\[quarry\] job (\S+) failed \(attempt/g)].map((m) => m[1]);
    return count(this.started()) > count(this.parked()) + count(this.handedOff()) + count(this.runJobs("(?:executed here|ended elsewhere)")) + count(failed);
  }

  /** The node jobs of a research that this worker started, or finished ("done"), by job id, from its log. */
  nodeJobs(researchId: string, event: "started" | "done"): string[] {
    return [...this.output.matchAll(new RegExp(`node job (\\S+) \\(research ${researchId}\\) ${event}`, "g"))].map((m) => m[1]);
  }

  /** This worker's log lines about one job, for a failing assertion's message. */
  linesOf(jobId: string): string {
    return this.output.split("\n").filter((line) => line.includes(jobId)).join("\n");
  }

  private async launch(): Promise<void> {
    this.output = "";
    const child = spawn(process.execPath, [...this.nodeArgs, "--import", "tsx", path.join(ROOT, "scripts", "worker.ts")], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stdout?.on("data", (d) => this.take(String(d)));
    child.stderr?.on("data", (d) => {
      this.take(String(d));
      // As a TestApp's server: under npm test a failed file's log then holds the worker's errors.
      if (process.env.TEST_ECHO_SERVER_STDERR === "1") process.stderr.write(`[worker ${this.name}] ${d}`);
    });
    const deadline = Date.now() + 60_000;
    while (!/is taking jobs/.test(this.output)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`worker ${this.name} exited (${child.exitCode}):\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`worker ${this.name} did not start within 60 s:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Simulates a crash: SIGKILL, no cleanup. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }

  /** A clean stop (SIGTERM: the worker closes and exits, writing what its node flags ask for), SIGKILL after 15 s. */
  async terminate(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.kill();
  }
}

/** A Deep Research start's message once it has ended (no longer processing). */
export function endedDrStart(app: TestApp, conversationId: string, timeoutMs = 180_000) {
  return waitFor(async () => {
    const c = await app.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    const root = c.rootMessageId ? await app.db.conversationMessage.findUnique({ where: { id: c.rootMessageId } }) : null;
    return root && root.status !== "processing" ? root : undefined;
  }, timeoutMs, "the Deep Research start to end");
}

/** A Deep Research run's row once it has ended: it ends after the start's message (once its last events are out). */
export function endedDrRun(app: TestApp, conversationId: string) {
  return waitFor(async () => {
    const run = await app.db.run.findFirstOrThrow({ where: { kind: "deep-research", subjectId: conversationId } });
    return run.status === "queued" || run.status === "running" ? undefined : run;
  }, 30_000, "the run row to end");
}

/**
 * A queue-mode test file's installation: the fakes, one web process on PostgreSQL (queue mode is the
 * deployment of several processes on one server database: SQLite's one writer at a time makes three
 * busy processes wait on "database is locked") and two workers taking one run each at a time (so that
 * several runs spread over both), with a 5 s job lock (a dead worker's job is back in the queue
 * within two lock periods). End it with tearDownQueueMode.
 */
export async function startTwoWorkers(name: string, prefix: string, overrides: Record<string, string> = {}): Promise<{ fakes: Fakes; app: TestApp; workers: TestWorker[] }> {
  const fakes = await startFakes();
  // One run and one part per worker at a time: the tests need the work spread over both workers (a
  // worker with the product's 16 part slots takes a small tree's every node, and the other has none to
  // be killed in). The product's part concurrency runs in the bench's single tree and recovery rows.
  const env = queueModeEnv(fakes.env, prefix, { QUEUE_LOCK_MS: "5000", QUEUE_WORKER_CONCURRENCY: "1", QUEUE_PART_CONCURRENCY: "1", MAX_CONCURRENT_RUNS_PER_USER: "10", ...overrides });
  const app = await TestApp.start({ name, env, database: "postgres" });
  return { fakes, app, workers: [await TestWorker.start(app, "w1"), await TestWorker.start(app, "w2")] };
}

/** A tree research's run row. */
export const treeRunOf = (app: TestApp, id: string) => app.db.run.findFirstOrThrow({ where: { kind: "tree", subjectId: id } });

/** A tree research's run row once it has ended (after the research's own status, once its last events are out). */
export const endedTreeRunOf = (app: TestApp, id: string) => waitFor(async () => {
  const run = await treeRunOf(app, id);
  return run.status === "queued" || run.status === "running" ? undefined : run;
}, 30_000, "the run row to end");

/** A tree explored by several processes (or again after a crash) has every query, page, link and item once. */
export async function assertTreeExactlyOnce(app: TestApp, id: string, depth: number, breadth: number) {
  const queries = await app.db.serpQuery.findMany({ where: { researchId: id } });
  const byDepth = queries.reduce<number[]>((n, q) => ((n[q.depth - 1] = (n[q.depth - 1] ?? 0) + 1), n), []);
  assert.deepEqual(byDepth, queriesPerLevel(depth, breadth), "every query once");
  const pages = await app.db.page.findMany({ where: { researchId: id } });
  assert.equal(pages.length, new Set(pages.map((p) => p.url)).size, "no duplicate pages");
  const links = await app.db.queryPage.findMany({ where: { query: { researchId: id } } });
  assert.equal(links.length, new Set(links.map((l) => `${l.queryId}|${l.pageId}`)).size, "no page analysed twice for a query");
  const items = await app.db.extractedItem.findMany({ where: { researchId: id } });
  assert.ok(items.length > 0);
  assert.equal(items.length, new Set(items.map((i) => `${i.queryPageId}|${i.content}`)).size, "no item extracted twice");
}
