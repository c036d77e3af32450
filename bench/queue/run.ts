// Queue mode's figures (issue 26): 10 concurrent (3, 3) researches with a high LLM limit, wall time on 2
// workers against 1 worker; and a single (5, 5) on 2 workers, its wall time ÷ its bound against the
// embedded mode's (the same research in the web process, on SQLite and on PostgreSQL). Each row gets a
// fresh web process on a new database and its own Redis key prefix; the workers are `npm run worker`
// processes (test/helpers/worker.ts). Wall time runs from the first start request to the last research
// completed (the single tree: to its stream's end, as in the tree rows).
import fs from "node:fs";
import path from "node:path";
import { loadavg } from "node:os";
import { Queue } from "bullmq";
import type { BoundLatencies, BoundLimits } from "../tree/bound";
import type { FakesProcess } from "../tree/fakes-process";
import { promptText, runTree, type TreeRunResult } from "../tree/run-tree";
import { cpuSeconds } from "../tree/proc";
import { median } from "../extraction-measure";
import { QUEUE_LOCK_MS_DEFAULT } from "@/lib/env";

/** A process's CPU seconds so far (0 for none, or where there is no /proc). */
const cpuSecondsOf = (pid: number | undefined): number => (pid === undefined ? 0 : cpuSeconds(pid));
import { TestApp } from "../../test/helpers/app-server";
import { createAndStart, waitForStatus } from "../../test/helpers/research";
import { assertTreeExactlyOnce, clearQueuePrefix, TestWorker } from "../../test/helpers/worker";
import { QUEUE_PART_CONCURRENCY_DEFAULT } from "../../lib/env";
import { WARM_UP, warmUp } from "../tree/warm-up";

export interface QueueBenchRow {
  workers: number;
  researches: number;
  depth: number;
  breadth: number;
  completed: number;
  wallMs: number;
  queries: number;
  llmCalls: number;
  /** Query node jobs each worker finished (from its log). */
  nodeJobs: number[];
  /** CPU seconds (user + system) of the web process and of the workers together, over the row's span. */
  cpuSeconds: number;
  /** The same split: the web process, each worker, and the PostgreSQL and Redis servers' processes together. */
  cpuWeb?: number;
  cpuWorkers?: number[];
  cpuServices?: number;
  /** The loopback fakes' process and the bench's own (its polling), for how busy the machine was. */
  cpuFakesAndBench?: number;
  /** The 1-minute load average when the row started (the machine may be shared). */
  load: number;
}

export interface SingleTreeRow {
  mode: "embedded" | "queue";
  database: "sqlite" | "postgres";
  workers: number;
  wallMs: number;
  boundMs: number;
  limitedBy: string;
  ratio: number;
  llmCalls: number;
  /** CPU seconds over the research: the web process (with its children), and the workers together (queue mode). */
  cpuWeb: number;
  cpuWorkers: number;
  load: number;
}

export interface RecoveryRow {
  depth: number;
  breadth: number;
  /** What the killed worker held: node jobs mid-tree, or the run's own job (its lease) mid-report. */
  victim: "nodes" | "run";
  /** The killed worker's jobs that were active when it was killed (its node jobs, or the run's job). */
  killedJobs: number;
  /** From the SIGKILL until each of them was active on the other worker (or done there): the last one. For the run's job: until the other worker held the run's lease (or the run ended). */
  rerunMs: number | null;
  /** From the SIGKILL until the research ended. */
  endMs: number;
  lockMs: number;
  status: string;
  /** Every query, page and item exactly once (test/helpers/worker.ts's check), or what was wrong. */
  exactlyOnce: true | string;
  wallMs: number;
}

export interface QueueBenchResult {
  rows: QueueBenchRow[];
  /** Wall on the most workers ÷ wall on 1 (issue 26's target: ≤ 0.6 with 2): the median of the rounds' (`ratios`). */
  ratio: number;
  /** Each interleaved round's ratio (absent in results recorded before the rows ran in rounds: one). */
  ratios?: number[];
  workerConcurrency: number;
  /** The rows' workers' slots for query nodes (QUEUE_PART_CONCURRENCY; absent in results recorded before it had its own: the runs' 4). */
  partConcurrency?: number;
  /** The single tree on the workers (at the product's QUEUE_PART_CONCURRENCY) and in the embedded mode (absent when not run). */
  singleTree?: { depth: number; breadth: number; partConcurrency?: number; rows: SingleTreeRow[] };
  /** A worker killed with SIGKILL mid-tree, then one killed holding the run's job (absent when not run). */
  recovery?: RecoveryRow[];
  /** The warm-up before each run, per process doing the work (absent in results recorded before it was: nine researches in all). */
  warmUpPerProcess?: { researches: number; depth: number; breadth: number };
}

const WORKER_CONCURRENCY = 4;

/** The pids of the database and Redis servers' processes (every postgres backend and redis-server) when a row starts: the pools have opened their connections by then (warm-up), and a backend opened later is not counted. */
function servicePids(): number[] {
  try {
    return fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((d) => {
      try {
        return /^(postgres|redis-server)$/.test(fs.readFileSync(`/proc/${d}/comm`, "utf8").trim());
      } catch {
        return false;
      }
    }).map(Number);
  } catch {
    return [];
  }
}

/**
 * The CPU seconds the service processes used between two readings (each pid's, in the same order): a
 * backend that exited meanwhile (a pool closing an idle connection) reads 0 at the end, and is left out
 * rather than subtracting what it had used before the row.
 */
export function servicesCpuDelta(before: number[], after: number[]): number {
  return before.reduce((sum, start, i) => (after[i] > 0 ? sum + Math.max(0, after[i] - start) : sum), 0);
}

/**
 * Waits until every research has ended, through the history list (one request every 250 ms for all of
 * them: a status request per research and poll was ~40 requests a second, whose CPU in the web process
 * competed with the workers measured). `onEnd` is called once per research as it is seen ended.
 */
async function waitForAllEnded(app: TestApp, ids: string[], timeoutMs: number, onEnd: (id: string) => void): Promise<Map<string, string>> {
  const deadline = Date.now() + timeoutMs;
  const ended = new Map<string, string>();
  for (;;) {
    const res = await app.fetch(`/api/research?limit=100`);
    const { researches } = (await res.json()) as { researches: { research_id: string; status: string }[] };
    for (const r of researches) {
      if (!ids.includes(r.research_id) || ended.has(r.research_id) || !["completed", "failed", "cancelled"].includes(r.status)) continue;
      ended.set(r.research_id, r.status);
      onEnd(r.research_id);
    }
    if (ended.size === ids.length) return ended;
    if (Date.now() > deadline) throw new Error(`${ids.length - ended.size} of ${ids.length} researches still at work after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A queue-mode web process on a new PostgreSQL database, under its own Redis key prefix, with the bench's limits and the product's other defaults. */
function startQueueApp(o: { fakes: FakesProcess; limits: BoundLimits; redisUrl: string; partConcurrency: number; name: string; prefix: string; nodeArgs?: string[] }): Promise<TestApp> {
  return TestApp.start({
    name: o.name,
    database: "postgres",
    nodeArgs: o.nodeArgs ?? [],
    env: {
      ...o.fakes.env,
      REDIS_URL: o.redisUrl,
      REDIS_KEY_PREFIX: o.prefix,
      QUEUE_WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
      QUEUE_PART_CONCURRENCY: String(o.partConcurrency),
      LLM_CONCURRENCY: String(o.limits.llmConcurrency),
      SEARCH_CONCURRENCY: String(o.limits.searchConcurrency),
      SCRAPE_CONCURRENCY: String(o.limits.fetchConcurrency),
      ANALYZE_CONCURRENCY_PER_QUERY: String(o.limits.analyzeConcurrencyPerQuery),
      MAX_CONCURRENT_RUNS_PER_USER: "100",
      RATE_LIMIT_STARTS_PER_HOUR: "1000",
      RATE_LIMIT_PLANNING_CALLS_PER_HOUR: "1000",
    },
  });
}

async function runRow(o: { profileDir?: string; fakes: FakesProcess; limits: BoundLimits; redisUrl: string; partConcurrency: number; workers: number; researches: number; depth: number; breadth: number; log: (line: string) => void }): Promise<QueueBenchRow> {
  const prefix = `quarry-bench-${o.workers}w-${process.pid}-${Date.now()}`;
  const app = await startQueueApp({ ...o, name: `bench-queue-${o.workers}w`, prefix,
    nodeArgs: o.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(o.profileDir, `queue-${o.workers}w-web`)}`] : [] });
  const workers: TestWorker[] = [];
  try {
    const nodeArgs = (i: number) => [
      ...(o.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(o.profileDir, `queue-${o.workers}w-worker${i + 1}`)}`] : []),
      // Which statements the workers send, by count (bench/tree/count-statements.cjs).
      ...(process.env.QUARRY_BENCH_STATEMENT_TEXTS ? ["--require", path.resolve("bench/tree/count-statements.cjs")] : []),
    ];
    for (let i = 0; i < o.workers; i++) workers.push(await TestWorker.start(app, `bench-w${i + 1}`, {}, nodeArgs(i)));
    await warmUp(app, o.workers);
    // The drafts (follow-up questions) first: the figure is the runs', not the planning calls'.
    const drafts: { id: string; prompt: string; questions: string[] }[] = [];
    for (let i = 0; i < o.researches; i++) {
      const prompt = `How do grid-scale batteries earn money? (queue benchmark ${i})`;
      const q = await app.postJson("/api/research/questions", { initial_prompt: prompt, num_questions: 2 });
      const { research_id, followup_questions } = (await q.json()) as { research_id: string; followup_questions: string[] };
      drafts.push({ id: research_id, prompt, questions: followup_questions });
    }
    await o.fakes.resetLogs();
    const load = loadavg()[0];
    const services = servicePids();
    const cpu = () => ({
      web: cpuSecondsOf(app.pid),
      workers: workers.map((w) => cpuSecondsOf(w.pid)),
      services: services.map((pid) => cpuSecondsOf(pid)),
      other: cpuSecondsOf(o.fakes.pid) + cpuSecondsOf(process.pid),
    });
    const cpu0 = cpu();
    const t0 = performance.now();
    await Promise.all(drafts.map(async (d) => {
      const res = await app.postJson("/api/research/start", {
        research_id: d.id, initial_prompt: d.prompt, followup_questions: d.questions, followup_answers: d.questions.map(() => "Europe since 2020"), depth: o.depth, breadth: o.breadth,
      });
      if (res.status !== 202) throw new Error(`start: ${res.status} ${await res.text()}`);
    }));
    /** When the bench saw each research end (ms from the first start request). */
    const ended: number[] = [];
    const statuses = await waitForAllEnded(app, drafts.map((d) => d.id), 900_000, () => ended.push(performance.now() - t0));
    const wallMs = performance.now() - t0;
    if (process.env.BENCH_TIMELINE_DIR) {
      // Each LLM call's agent, research (its prompt's benchmark number) and start (ms from the first start request), and each research's end as the bench saw it.
      const origin = performance.timeOrigin + t0;
      const llm = (await o.fakes.llmLog()).map((e) => ({ at: e.at - origin, agent: e.agent, research: /queue benchmark (\d+)/.exec(promptText(e))?.[1] }));
      // Each node job's worker, and when it was added, taken and finished (ms from the first start request).
      const nodeQueue = new Queue("tree-nodes", { connection: { url: o.redisUrl }, prefix });
      const at = (ms: number | undefined) => (ms === undefined ? null : ms - origin);
      const nodes = (await nodeQueue.getJobs(["completed"])).map((j) => ({
        worker: workers.findIndex((w) => j.processedBy?.includes(`:${w.pid}:`)), added: at(j.timestamp), taken: at(j.processedOn), finished: at(j.finishedOn),
      }));
      await nodeQueue.close();
      fs.writeFileSync(path.join(process.env.BENCH_TIMELINE_DIR, `queue-${o.workers}w.json`), JSON.stringify({ wallMs, ended: ended.sort((a, b) => a - b), llm, nodes }));
    }
    const cpu1 = cpu();
    const cpuWeb = cpu1.web - cpu0.web;
    const cpuWorkers = cpu1.workers.map((c, i) => c - cpu0.workers[i]);
    const cpuSeconds = cpuWeb + cpuWorkers.reduce((a, b) => a + b, 0);
    const ids = new Set(drafts.map((d) => d.id));
    const row: QueueBenchRow = {
      workers: o.workers, researches: o.researches, depth: o.depth, breadth: o.breadth,
      completed: [...statuses.values()].filter((s) => s === "completed").length,
      wallMs,
      queries: await app.db.serpQuery.count({ where: { researchId: { in: drafts.map((d) => d.id) } } }),
      llmCalls: (await o.fakes.llmLog()).length,
      nodeJobs: workers.map((w) => [...w.logs().matchAll(/node job \S+ \(research (\S+)\) done/g)].filter((m) => ids.has(m[1])).length),
      cpuSeconds,
      cpuWeb,
      cpuWorkers,
      cpuServices: servicesCpuDelta(cpu0.services, cpu1.services),
      cpuFakesAndBench: cpu1.other - cpu0.other,
      load,
    };
    o.log(`queue ${o.researches} × (${o.depth}, ${o.breadth}) on ${o.workers} worker(s): ${row.completed}/${o.researches} completed, ${(wallMs / 1000).toFixed(2)} s wall, ` +
      `${row.queries} queries, ${row.llmCalls} LLM calls, node jobs per worker ${row.nodeJobs.join("/")}, CPU ${cpuSeconds.toFixed(1)} s (web ${cpuWeb.toFixed(1)}, workers ${cpuWorkers.map((c) => c.toFixed(1)).join("/")}, PostgreSQL + Redis ${row.cpuServices!.toFixed(1)}, fakes + bench ${row.cpuFakesAndBench!.toFixed(1)}), load ${load.toFixed(1)}`);
    return row;
  } finally {
    for (const w of workers) await (o.profileDir ? w.terminate() : w.stop());
    await app.stop({ graceful: Boolean(o.profileDir) });
    await clearQueuePrefix(o.redisUrl, prefix);
  }
}

export async function runQueueBench(o: { profileDir?: string; fakes: FakesProcess; latencies: BoundLatencies; limits: BoundLimits; contextTokenBudget: number; redisUrl: string; rowsPartConcurrency?: number; researches?: number; depth?: number; breadth?: number; workerCounts?: number[]; rowsRuns?: number; singleTree?: { depth: number; breadth: number; workers: number; runs?: number; modes?: SingleTreeMode[] }; recovery?: { depth: number; breadth: number }; log: (line: string) => void }): Promise<QueueBenchResult> {
  const { researches = 10, depth = 3, breadth = 3, workerCounts = [1, 2], rowsRuns = 1 } = o;
  const rows: QueueBenchRow[] = [];
  // The rows hold each worker's capacity fixed, as every earlier figure did (4 runs and 4 parts at once),
  // so that the second worker doubles it; the single tree and recovery run at the product's default.
  const partConcurrency = o.rowsPartConcurrency ?? WORKER_CONCURRENCY;
  // Interleaved rounds (one row per worker count each): one round's ratio moves by ±0.05 here; the median of the rounds' is the figure.
  for (let round = 0; round < rowsRuns; round++) {
    for (const workers of workerCounts) rows.push(await runRow({ ...o, partConcurrency, workers, researches, depth, breadth }));
  }
  const ratios = roundRatios(rows, workerCounts.length);
  const result: QueueBenchResult = { rows, ratio: median(ratios), ratios, workerConcurrency: WORKER_CONCURRENCY, partConcurrency, warmUpPerProcess: { ...WARM_UP } };
  const product = { ...o, partConcurrency: QUEUE_PART_CONCURRENCY_DEFAULT };
  if (o.singleTree) result.singleTree = { depth: o.singleTree.depth, breadth: o.singleTree.breadth, partConcurrency: product.partConcurrency, rows: await runSingleTree({ ...product, ...o.singleTree }) };
  if (o.recovery) result.recovery = [await runRecovery({ ...product, ...o.recovery, victim: "nodes" }), await runRecovery({ ...product, ...o.recovery, victim: "run" })];
  return result;
}

/**
 * Recovery (issue 26): a (depth, breadth) tree on 2 workers with the product's lock and lease
 * settings; `victim: "nodes"`: once one worker runs at least `atLeast` node jobs it is killed with
 * SIGKILL; `"run"`: once the tree is explored, the worker writing the report (holding the run's lease)
 * is. Measured: how long until each of its jobs is active on the other worker (or done there; for
 * the run's job, until the other holds the run's lease), until the research ends, and whether it
 * ended with every query, page and item exactly once.
 */
const recoveryVictim = (row: RecoveryRow) => (row.victim === "run" ? "the run's job (its lease), the tree explored" : `${row.killedJobs} node jobs active, mid-tree`);

async function runRecovery(o: { fakes: FakesProcess; limits: BoundLimits; redisUrl: string; partConcurrency: number; depth: number; breadth: number; victim: "nodes" | "run"; atLeast?: number; log: (line: string) => void }): Promise<RecoveryRow> {
  const prefix = `quarry-bench-recovery-${process.pid}-${Date.now()}`;
  const app = await startQueueApp({ ...o, name: "bench-queue-recovery", prefix });
  const workers: TestWorker[] = [];
  const nodes = new Queue("tree-nodes", { connection: { url: o.redisUrl }, prefix });
  try {
    for (let i = 0; i < 2; i++) workers.push(await TestWorker.start(app, `bench-r${i + 1}`));
    await warmUp(app, workers.length);
    const t0 = performance.now();
    const id = await createAndStart(app, { prompt: "Pumped hydro storage economics (recovery benchmark)", depth: o.depth, breadth: o.breadth });
    const ownerOf = (job: { processedBy?: string }) => workers.find((w) => job.processedBy?.includes(`:${w.pid}:`));
    const leaseHolder = async () => {
      const run = await app.db.run.findFirst({ where: { kind: "tree", subjectId: id } });
      return { run, worker: workers.find((w) => run?.leaseOwner?.includes(`:${w.pid}:`)) };
    };
    // Mid-tree: wait until one worker has `atLeast` node jobs active (or, for the run's job, until the
    // tree is explored and a worker holds the run's lease: its report), then kill it.
    let victim: TestWorker | undefined;
    let killed: string[] = [];
    const deadline = Date.now() + 120_000;
    while (!victim) {
      if (Date.now() > deadline) throw new Error(`no worker held ${o.victim === "run" ? "the run's report" : "node jobs"} within 120 s`);
      if (o.victim === "nodes") {
        const active = await nodes.getActive();
        for (const w of workers) {
          const mine = active.filter((j) => ownerOf(j) === w);
          if (mine.length >= (o.atLeast ?? 2)) {
            victim = w;
            killed = mine.map((j) => j.id!);
            break;
          }
        }
      } else {
        const counts = await nodes.getJobCounts("active", "waiting", "delayed", "prioritized", "completed");
        const explored = counts.completed > 0 && counts.active + counts.waiting + counts.delayed + counts.prioritized === 0;
        const { worker } = explored ? await leaseHolder() : { worker: undefined };
        if (worker) {
          victim = worker;
          killed = ["run"];
        }
      }
      if (!victim) await new Promise((r) => setTimeout(r, 20));
    }
    await victim.kill();
    const killedAt = performance.now();
    const rerun = new Map<string, number>();
    while (rerun.size < killed.length && performance.now() - killedAt < 120_000) {
      for (const jobId of killed) {
        if (rerun.has(jobId)) continue;
        if (o.victim === "run") {
          const { run, worker } = await leaseHolder();
          if (!run || !["queued", "running"].includes(run.status) || (worker && worker !== victim)) rerun.set(jobId, performance.now() - killedAt);
          continue;
        }
        const job = await nodes.getJob(jobId);
        const state = await job?.getState();
        if (!job || state === "completed" || (state === "active" && ownerOf(job) !== victim)) rerun.set(jobId, performance.now() - killedAt);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const view = await waitForStatus(app, id, ["completed", "failed", "cancelled"], 300_000);
    const wallMs = performance.now() - t0;
    const endMs = performance.now() - killedAt;
    let exactlyOnce: true | string = true;
    try {
      await assertTreeExactlyOnce(app, id, o.depth, o.breadth);
    } catch (error) {
      exactlyOnce = (error as Error).message;
    }
    const row: RecoveryRow = {
      depth: o.depth, breadth: o.breadth, victim: o.victim, killedJobs: killed.length,
      rerunMs: rerun.size === killed.length ? Math.max(...rerun.values()) : null, endMs,
      lockMs: Number(app.serverEnv.QUEUE_LOCK_MS ?? QUEUE_LOCK_MS_DEFAULT),
      status: view.status, exactlyOnce, wallMs,
    };
    o.log(`recovery: a worker killed with ${recoveryVictim(row)}; ${row.victim === "run" ? "it was" : "they were"} running again on the other in ${row.rerunMs === null ? "(not all within 120 s)" : `${(row.rerunMs / 1000).toFixed(2)} s`}; ` +
      `research ${row.status} ${(endMs / 1000).toFixed(2)} s after the kill (${(wallMs / 1000).toFixed(2)} s after its start), exactly once: ${exactlyOnce === true ? "yes" : exactlyOnce}`);
    return row;
  } finally {
    await nodes.close();
    for (const w of workers) await w.stop();
    await app.stop();
    await clearQueuePrefix(o.redisUrl, prefix);
  }
}

/**
 * The single tree in the embedded mode (SQLite, the default; PostgreSQL, queue mode's database) and on
 * the workers, one after the other on the same fakes, each held against the bound of the tree it built.
 */
/** One of the single tree's modes: on the workers, or embedded on a database. */
export type SingleTreeMode = Pick<SingleTreeRow, "mode" | "database">;

async function runSingleTree(o: { profileDir?: string; fakes: FakesProcess; latencies: BoundLatencies; limits: BoundLimits; contextTokenBudget: number; redisUrl: string; partConcurrency: number; depth: number; breadth: number; workers: number; runs?: number; modes?: SingleTreeMode[]; log: (line: string) => void }): Promise<SingleTreeRow[]> {
  const rows: SingleTreeRow[] = [];
  // All three by default (--queue-single-modes picks some: a before-and-after of one mode).
  const modes: SingleTreeMode[] = o.modes ?? [
    { mode: "embedded", database: "sqlite" },
    { mode: "embedded", database: "postgres" },
    { mode: "queue", database: "postgres" },
  ];
  // Interleaved rounds: one run's ratio moves by ±0.4 on 2 shared cores; the medians are compared.
  const rounds = Array.from({ length: o.runs ?? 1 }, () => modes).flat();
  for (const [round, { mode, database }] of rounds.entries()) {
    const load = loadavg()[0];
    const workers = mode === "queue" ? o.workers : 0;
    const r: TreeRunResult = await runTree({
      depth: o.depth, breadth: o.breadth, database, latencies: o.latencies, limits: o.limits, contextTokenBudget: o.contextTokenBudget, fakes: o.fakes,
      ...(mode === "queue" ? { queue: { workers, redisUrl: o.redisUrl } } : {}),
      // --profile: the web process's and the workers' profiles, a folder per run.
      ...(o.profileDir ? { profileDir: path.join(o.profileDir, `single-${round + 1}-${mode}-${database}`) } : {}),
    });
    const row: SingleTreeRow = { mode, database, workers, wallMs: r.wallMs, boundMs: r.bound.boundMs, limitedBy: r.bound.limitedBy, ratio: r.ratio, llmCalls: r.llm.calls,
      cpuWeb: r.server.cpuSeconds, cpuWorkers: r.queueCpuSeconds ?? 0, load };
    o.log(`single (${o.depth}, ${o.breadth}) ${mode === "queue" ? `on ${workers} workers` : "embedded"} (${database}): ${(r.wallMs / 1000).toFixed(2)} s wall, bound ${(r.bound.boundMs / 1000).toFixed(2)} s (${r.bound.limitedBy}), ratio ${r.ratio.toFixed(3)}, ` +
      `${r.llm.calls} LLM calls, CPU web ${row.cpuWeb.toFixed(1)} s${workers ? ` + workers ${row.cpuWorkers.toFixed(1)} s` : ""}, load ${load.toFixed(1)}`);
    rows.push(row);
  }
  return rows;
}

/** Each interleaved round's wall on the most workers ÷ on the fewest (the rows in order, `perRound` a round). */
export function roundRatios(rows: QueueBenchRow[], perRound: number): number[] {
  const ratios: number[] = [];
  for (let first = 0; first + perRound <= rows.length; first += perRound) ratios.push(rows[first + perRound - 1].wallMs / rows[first].wallMs);
  return ratios;
}

/** The single tree's medians per mode (its runs were interleaved), the workers' against each embedded mode's. */
export function singleTreeVerdicts(rows: SingleTreeRow[]): string[] {
  const medianRatio = (mode: SingleTreeRow["mode"], database: SingleTreeRow["database"]) => {
    const ratios = rows.filter((r) => r.mode === mode && r.database === database).map((r) => r.ratio);
    return ratios.length ? { ratio: median(ratios), runs: ratios.length } : undefined;
  };
  const queue = medianRatio("queue", "postgres");
  if (!queue) return [];
  const workers = rows.find((r) => r.mode === "queue")!.workers;
  return (["sqlite", "postgres"] as const).flatMap((database) => {
    const embedded = medianRatio("embedded", database);
    if (!embedded) return [];
    const diff = queue.ratio - embedded.ratio;
    const of = queue.runs > 1 ? `the medians of ${queue.runs} interleaved runs, ` : "";
    return [`On ${workers} workers − embedded on ${database} (${of}wall ÷ bound ${queue.ratio.toFixed(3)} − ${embedded.ratio.toFixed(3)}): **${(diff >= 0 ? "+" : "") + diff.toFixed(3)}** (target: within 0.1${Math.abs(Number(diff.toFixed(3))) <= 0.1 ? " ✓" : " ✗"}).`];
  });
}

export function formatQueueMarkdown(result: QueueBenchResult): string {
  const w = result.warmUpPerProcess;
  const warmUpLine = w ? [`Each run follows a warm-up of ${w.researches} (${w.depth}, ${w.breadth}) research${w.researches === 1 ? "" : "es"} per process doing the work: the embedded server, or each worker (bench/tree/warm-up.ts).`, ""] : [];
  const lines = ["## Queue mode: workers", "", ...warmUpLine, ...(result.rows.length === 0 ? ["The rows of concurrent researches were not run (`--queue-rows-runs 0`).", ""] : [
    `Concurrent tree researches queued through one web process (PostgreSQL, Redis) and executed by \`npm run worker\` processes (QUEUE_WORKER_CONCURRENCY ${result.workerConcurrency} and QUEUE_PART_CONCURRENCY ${result.partConcurrency ?? result.workerConcurrency} each); wall time from the first start request to the last research completed.`,
    "",
    "| workers | researches | config | completed | wall s | queries | LLM calls | node jobs per worker | CPU s (web + workers) | CPU s: web / workers / PostgreSQL + Redis / fakes + bench | load at start |",
    "| ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: |",
    ...result.rows.map((r) => `| ${r.workers} | ${r.researches} | (${r.depth}, ${r.breadth}) | ${r.completed} | ${(r.wallMs / 1000).toFixed(2)} | ${r.queries} | ${r.llmCalls} | ${r.nodeJobs.join(" / ")} | ${r.cpuSeconds.toFixed(1)} | ${r.cpuWeb === undefined ? "n/a" : `${r.cpuWeb.toFixed(1)} / ${r.cpuWorkers!.map((c) => c.toFixed(1)).join(" + ")} / ${r.cpuServices!.toFixed(1)} / ${r.cpuFakesAndBench?.toFixed(1) ?? "n/a"}`} | ${r.load.toFixed(1)} |`),
    "",
    `Wall on ${result.rows.at(-1)!.workers} workers ÷ on ${result.rows[0].workers}${(result.ratios?.length ?? 1) > 1 ? ` (the median of ${result.ratios!.length} interleaved rounds: ${result.ratios!.map((r) => r.toFixed(3)).join(", ")})` : ""}: **${result.ratio.toFixed(3)}** (target ≤ 0.6${result.ratio <= 0.6 ? " ✓" : " ✗"}).`,
    "",
  ])];
  const single = result.singleTree;
  if (single) {
    const queue = single.rows.find((r) => r.mode === "queue");
    lines.push(
      `### A single (${single.depth}, ${single.breadth}): on the workers and in the embedded mode`,
      "",
      `The workers at the product's settings (QUEUE_PART_CONCURRENCY ${single.partConcurrency ?? result.workerConcurrency} each).`,
      "",
      "| mode | database | workers | wall s | bound s (limited by) | wall ÷ bound | LLM calls | CPU s: web / workers | load at start |",
      "| --- | --- | ---: | ---: | --- | ---: | ---: | --- | ---: |",
      ...single.rows.map((r) => `| ${r.mode} | ${r.database} | ${r.workers || "–"} | ${(r.wallMs / 1000).toFixed(2)} | ${(r.boundMs / 1000).toFixed(2)} (${r.limitedBy}) | ${r.ratio.toFixed(3)} | ${r.llmCalls} | ${r.cpuWeb.toFixed(1)} / ${r.workers ? r.cpuWorkers.toFixed(1) : "–"} | ${r.load.toFixed(1)} |`),
      "",
      ...(queue ? singleTreeVerdicts(single.rows) : []),
      "",
    );
  }
  for (const rec of result.recovery ?? []) {
    lines.push(
      `### Recovery: a worker killed with SIGKILL holding ${recoveryVictim(rec)}, (${rec.depth}, ${rec.breadth}), QUEUE_LOCK_MS ${rec.lockMs}`,
      "",
      `${rec.victim === "run" ? "The run's job was running again on the other worker (it held the run's lease, or the run had ended)" : `The ${rec.killedJobs} node jobs were active on the other worker (or done there)`} **${rec.rerunMs === null ? "not all within 120 s" : `${(rec.rerunMs / 1000).toFixed(2)} s`}** after the kill (target < 10 s). ` +
        `The research ended ${rec.status} ${(rec.endMs / 1000).toFixed(2)} s after the kill (${(rec.wallMs / 1000).toFixed(2)} s after its start); every query, page and item exactly once: ${rec.exactlyOnce === true ? "yes" : `**no** (${rec.exactlyOnce})`}.`,
      "",
    );
  }
  return lines.join("\n");
}
