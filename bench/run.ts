// npm run bench: the production build against the loopback fakes with fixed latencies.
//   npm run bench                       tree runs (2,3) (3,4) (5,5) + extraction → bench/results/latest.{json,md}
//   npm run bench -- --smoke            a tiny run of every part (CI) → bench/results/tmp/
//   npm run bench -- --only answer      the answer agent's figure alone (steps, tokens, wall vs dependent calls)
//   npm run bench -- --only datasets    a 100 MB CSV's load time and the analysis queries' p95 (in process)
//   npm run bench -- --only knowledge   the knowledge base: indexing pages/s and search p50/p95 on 1,000
//                                       documents, on each --database (smoke: 50 documents)
//   npm run bench -- --only exports     each export format of one report built, then the same version requested
//                                       again: served from the cache, no compile (issue 54)
//   npm run bench -- --only chat-clients  every captured chat-client request decided (housekeeping or question):
//                                       the classification calls' tokens per request (issue 55)
//   npm run bench -- --only llm-tps     the fake LLM generating at 40 tokens/s (issue 57): a tree research's time to the
//                                       report's first token and to its end against bounds with the generation time, and
//                                       what the report's verification adds after it (--tps 40, --tps-config 2x3; smoke: 400, 1x2)
//   npm run bench -- --only misbehave   the misbehaving model (issue 51): every engine in process under each mode of
//                                       the fake's misbehaving model, a row per mode (--misbehave-modes think,generic:
//                                       which; --misbehave-config 2x2: the tree's size; smoke: think and generic, 1x2)
//   npm run bench -- --only queue       queue mode: 10 concurrent (3, 3) researches on 1 worker, then on 2
//                                       (--queue-rows-runs 3: interleaved rounds, the median of their ratios);
//                                       then a single (5, 5) embedded (SQLite, PostgreSQL) and on 2 workers
//                                       (--queue-single DxB: another size; 0: not run; --queue-single-runs 3:
//                                       interleaved rounds of the three, medians compared; --queue-single-modes
//                                       queue,sqlite,postgres: which of them); then a worker
//                                       killed mid-tree (3, 3), then one holding the run (--queue-recovery DxB or 0);
//                                       --part-concurrency N: the 1- and 2-worker rows' slots for query nodes (default 4, as for runs)
//                                       (PostgreSQL and Redis at TEST_REDIS_URL, default redis://127.0.0.1:6379)
//   options: --configs 2x3,5x5  --llm-latency 150 --search-latency 80 --web-latency 60
//            --llm-concurrency 8 (--search-, --fetch-, --analyze-concurrency; default: the product's) --only tree|faults|large-web|extraction  --no-build  --out DIR
//            --web-pages 800 --large-web-config 5x5 (the large fixture web's row; smoke: 20 pages, 1x2)
//            --faults-config 3x4 --fault-429 0.3 --fault-500 0.1 --retry-after 1 --fault-seed 1  --no-faults
//              (the "faults" row: one research through the fault-injecting LLM proxy; smoke: 1x2)
//            --profile DIR (the server's CPU profile of each tree run, and with --only queue the workers', for Chrome DevTools)
//            --peer-runs 3 --peer-concurrency 16 (the lean peer's runs per tree size, after Quarry's; 0: none; smoke: 1)
//            --overlap-pages 22 (the tree rows again on the overlapping fixture web of that many pages, with the peer; 0: not run)
//            --server-node-args=--max-semi-space-size=64 (extra flags for the server's node; note the =)
//            BENCH_WARM_UP_RESEARCHES=9 BENCH_WARM_UP_DEPTH=2 BENCH_WARM_UP_BREADTH=3: the warm-up before each
//              measured run, per process doing the work (queue mode: 9 per worker; bench/tree/warm-up.ts;
//              smoke: one (1, 1)), e.g. =1, 1, 1 to measure cold code
//            --database sqlite|postgres|both (default sqlite; both: every tree row and the faults row on each,
//              PostgreSQL on TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadEnv } from "../lib/env";
import { buildIsStale } from "../scripts/build-state.mjs";
import { formatAnswerMarkdown, runAnswerBench, type AnswerRunResult } from "./answer/run-answer";
import { runExtractionBench, SMOKE_OPTIONS, type ExtractionResult } from "./extraction";
import { runExtractionQuality, type QualityResult } from "./extraction-quality";
import type { BoundLatencies, BoundLimits } from "./tree/bound";
import { startFakesProcess } from "./tree/fakes-process";
import { formatBenchMarkdown, formatLargeWebMarkdown, TARGETS } from "./tree/report";
import { BENCH_DATABASES, type BenchDatabase } from "./tree/database";
import { benchPrompt, runTree, type TreeRunResult } from "./tree/run-tree";
import { formatPeerMarkdown, peerRow, type PeerRow } from "./peer/report";
import { runTreePeer, type PeerResult } from "./peer/tree-peer";
import { formatDeepResearchMarkdown, runDeepResearchBench, type DrBenchResult } from "./deep-research/run";
import { formatDatasetsMarkdown, runDatasetsBench, type DatasetsBenchResult } from "./datasets/run";
import { formatQueueMarkdown, runQueueBench, type QueueBenchResult, type SingleTreeMode } from "./queue/run";
import { formatKnowledgeMarkdown, runKnowledgeBench, type KnowledgeBenchResult } from "./knowledge/run";
import { formatMisbehaveMarkdown, runMisbehaveBench, type MisbehaveBenchResult } from "./misbehave/run";
import { formatExportsMarkdown, runExportsBench, type ExportsBenchResult } from "./exports/run";
import { formatChatClientsMarkdown, runChatClientsBench, type ChatClientsBenchResult } from "./chat-clients/run";
import { MISBEHAVE_MODES, type MisbehaveMode } from "../test/fakes/llm-misbehave";
import { WARM_UP } from "./tree/warm-up";
import { formatWebsMarkdown, runOverlapRows, type OverlapRows } from "./tree/overlap-rows";
import { formatLlmTpsMarkdown, runLlmTpsBench, type LlmTpsResult } from "./llm-tps/run";
import { calibrateMachine } from "./machine";

const ROOT = path.resolve(import.meta.dirname, "..");

const { values } = parseArgs({
  options: {
    smoke: { type: "boolean", default: false },
    configs: { type: "string" },
    "llm-latency": { type: "string" },
    "search-latency": { type: "string" },
    "web-latency": { type: "string" },
    "llm-concurrency": { type: "string" },
    "search-concurrency": { type: "string" },
    "fetch-concurrency": { type: "string" },
    "analyze-concurrency": { type: "string" },
    "context-budget": { type: "string", default: "6000" },
    "failing-page-share": { type: "string", default: "0" },
    "web-pages": { type: "string" },
    "large-web-config": { type: "string" },
    only: { type: "string" },
    "literature-analyze-concurrency": { type: "string" },
    "dr-long-iterations": { type: "string" },
    "faults-config": { type: "string" },
    "fault-429": { type: "string", default: "0.3" },
    "fault-500": { type: "string", default: "0.1" },
    "retry-after": { type: "string" },
    "fault-seed": { type: "string", default: "1" },
    "no-faults": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    out: { type: "string" },
    profile: { type: "string" },
    "queue-single": { type: "string" },
    "queue-recovery": { type: "string" },
    "queue-single-runs": { type: "string" },
    "queue-single-modes": { type: "string" },
    "queue-rows-runs": { type: "string" },
    "part-concurrency": { type: "string" },
    "server-node-args": { type: "string" },
    "peer-runs": { type: "string" },
    "peer-concurrency": { type: "string" },
    "overlap-pages": { type: "string" },
    database: { type: "string", default: "sqlite" },
    "misbehave-modes": { type: "string" },
    "misbehave-config": { type: "string" },
    tps: { type: "string" },
    "tps-config": { type: "string" },
  },
});

function positive(name: string, raw: string | undefined, fallback: number): number {
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** --queue-single-modes: the single tree's modes to run (queue: on the workers; sqlite, postgres: embedded); all three by default. */
function singleModes(raw: string | undefined): SingleTreeMode[] | undefined {
  if (raw === undefined) return undefined;
  const modes = raw.split(",").map((m) => m.trim());
  const known: Record<string, SingleTreeMode> = { queue: { mode: "queue", database: "postgres" }, sqlite: { mode: "embedded", database: "sqlite" }, postgres: { mode: "embedded", database: "postgres" } };
  const unknown = modes.filter((m) => !(m in known));
  if (unknown.length > 0 || modes.length === 0) throw new Error(`--queue-single-modes takes queue, sqlite and postgres, got "${raw}"`);
  return modes.map((m) => known[m]);
}

const smoke = values.smoke;
// Smoke: the warm-up of one (1, 1) research (the smoke run keeps the bench from rotting, it measures nothing).
if (smoke) Object.assign(WARM_UP, { researches: 1, depth: 1, breadth: 1 });
function config(c: string): { depth: number; breadth: number } {
  const m = /^(\d+)x(\d+)$/.exec(c.trim());
  if (!m) throw new Error(`--configs and --faults-config take DEPTHxBREADTH pairs such as 2x3,5x5, got "${c}"`);
  return { depth: Number(m[1]), breadth: Number(m[2]) };
}
const configs = (values.configs ?? (smoke ? "1x2" : "2x3,3x4,5x5")).split(",").map(config);
const faultsConfig = config(values["faults-config"] ?? (smoke ? "1x2" : "3x4"));
const faultMix = {
  rate429: positive("fault-429", values["fault-429"], 0.3),
  rate500: positive("fault-500", values["fault-500"], 0.1),
  // Smoke: Retry-After 0, so that the 429s cost no waiting (the row only has to keep working there).
  retryAfterSeconds: positive("retry-after", values["retry-after"], smoke ? 0 : 1),
  seed: positive("fault-seed", values["fault-seed"], 1),
};
const latencies: BoundLatencies = {
  llmMs: positive("llm-latency", values["llm-latency"], smoke ? 20 : 150),
  searchMs: positive("search-latency", values["search-latency"], smoke ? 10 : 80),
  webMs: positive("web-latency", values["web-latency"], smoke ? 10 : 60),
};
// The product's defaults unless a flag says otherwise: the bench measures what a user who sets nothing gets.
const productDefaults = loadEnv({}).env;
const limits: BoundLimits = {
  llmConcurrency: positive("llm-concurrency", values["llm-concurrency"], productDefaults.LLM_CONCURRENCY),
  searchConcurrency: positive("search-concurrency", values["search-concurrency"], productDefaults.SEARCH_CONCURRENCY),
  fetchConcurrency: positive("fetch-concurrency", values["fetch-concurrency"], productDefaults.SCRAPE_CONCURRENCY),
  analyzeConcurrencyPerQuery: positive("analyze-concurrency", values["analyze-concurrency"], productDefaults.ANALYZE_CONCURRENCY_PER_QUERY),
};
const peerRuns = positive("peer-runs", values["peer-runs"], smoke ? 1 : 3);
const peerConcurrency = positive("peer-concurrency", values["peer-concurrency"], 16);
// The tree rows again on the overlapping web (issue 57): this many pages; 0: not run.
const overlapPages = positive("overlap-pages", values["overlap-pages"], 22);
const contextTokenBudget = positive("context-budget", values["context-budget"], 6000);
const outDir = path.resolve(values.out ?? path.join(ROOT, "bench", "results", smoke ? "tmp" : ""));
if (values.only && !["tree", "faults", "large-web", "extraction", "answer", "deep-research", "datasets", "knowledge", "queue", "misbehave", "exports", "chat-clients", "llm-tps"].includes(values.only)) {
  throw new Error(`--only takes tree, faults, large-web, extraction, answer, deep-research, datasets, knowledge, queue, misbehave, exports, chat-clients or llm-tps, got "${values.only}"`);
}
// The fake LLM at a realistic generation speed (issue 57): a tree research, its report's first token and end.
const runLlmTps = !values.only || values.only === "llm-tps";
const llmTpsRequest = { tokensPerSecond: positive("tps", values.tps, smoke ? 400 : 40), ...config(values["tps-config"] ?? (smoke ? "1x2" : "2x3")) };
// --only tree runs the tree rows and the faults row; --only faults the faults row alone.
const runTreePart = !values.only || values.only === "tree";
const runFaults = !values["no-faults"] && (!values.only || values.only === "tree" || values.only === "faults");
// The large fixture web's row: 800 pages (smoke: 20, one of them over 1 MB), (5, 5) (smoke: 1 × 2).
const runLargeWeb = !values.only || values.only === "large-web";
const webPages = positive("web-pages", values["web-pages"], smoke ? 20 : 800);
const largeWebConfig = config(values["large-web-config"] ?? (smoke ? "1x2" : "5x5"));
const runExtraction = !values.only || values.only === "extraction";
const runAnswer = !values.only || values.only === "answer";
const runDeepResearch = !values.only || values.only === "deep-research";
const runDatasets = !values.only || values.only === "datasets";
const runKnowledge = !values.only || values.only === "knowledge";
// In process (no build): the well-behaved fake's reference row, then a row per mode (smoke: two modes, a (1, 2) tree).
const runMisbehave = !values.only || values.only === "misbehave";
function misbehaveModes(raw: string | undefined): (MisbehaveMode | null)[] {
  if (raw === undefined) return smoke ? ["think", "generic"] : [null, ...MISBEHAVE_MODES];
  const modes = raw.split(",").map((m) => m.trim());
  const unknown = modes.filter((m) => m !== "none" && !(MISBEHAVE_MODES as readonly string[]).includes(m));
  if (unknown.length > 0 || modes.length === 0) throw new Error(`--misbehave-modes takes none and ${MISBEHAVE_MODES.join(", ")}, got "${raw}"`);
  return modes.map((m) => (m === "none" ? null : (m as MisbehaveMode)));
}
const misbehaveRequest = { modes: misbehaveModes(values["misbehave-modes"]), ...config(values["misbehave-config"] ?? (smoke ? "1x2" : "2x2")) };
// In process: each export format of one report, built and then requested again (the cache's row).
const runExports = !values.only || values.only === "exports";
// In a child process: every captured chat-client request decided, the classification calls' tokens.
const runChatClients = !values.only || values.only === "chat-clients";
// Needs Redis (and PostgreSQL): only when asked for.
const runQueue = values.only === "queue";
if (!["sqlite", "postgres", "both"].includes(values.database)) throw new Error(`--database takes sqlite, postgres or both, got "${values.database}"`);
const databases: readonly BenchDatabase[] = values.database === "both" ? BENCH_DATABASES : [values.database as BenchDatabase];
const log = (line: string) => console.error(`[bench] ${line}`);

async function main(): Promise<void> {
  if ((runTreePart || runFaults || runLargeWeb || runAnswer || runDeepResearch || runQueue || runLlmTps) && !values["no-build"] && buildIsStale(ROOT)) {
    log("building the app (npm run build)");
    const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  // Before anything else runs: what this machine's figures are to be read against (bench/machine.ts).
  const machine = await calibrateMachine();
  log(`machine: a loopback round trip ${machine.loopbackRoundTripCpuUs} µs of CPU, the JSON loop ${machine.jsonLoopMs} ms`);

  const tree: TreeRunResult[] = [];
  const peer: PeerRow[] = [];
  const faults: TreeRunResult[] = [];
  if (runTreePart || runFaults) {
    const fakes = await startFakesProcess(latencies, { failingPageShare: Number(values["failing-page-share"]), faults: runFaults });
    try {
      // Each configuration on each database in turn, so that the rows compared side by side ran close together.
      for (const { depth, breadth } of runTreePart ? configs : []) {
        for (const database of databases) {
          log(`tree ${depth}x${breadth} ${database}: running`);
          const result = await runTree({ depth, breadth, database, latencies, limits, contextTokenBudget, fakes, profileDir: values.profile && path.resolve(values.profile),
            serverNodeArgs: values["server-node-args"]?.split(/\s+/).filter(Boolean) ?? [] });
          const st = result.statements;
          log(
            `tree ${depth}x${breadth} ${database}: ${(result.wallMs / 1000).toFixed(2)} s wall, bound ${(result.bound.boundMs / 1000).toFixed(2)} s ` +
              `(${result.bound.limitedBy}), ratio ${result.ratio.toFixed(3)}, CPU ${result.server.cpuSeconds.toFixed(2)} s ` +
              `(${result.server.byProcess.map((p) => `${p.name} ${p.cpuSeconds.toFixed(2)}`).join(", ")}), ` +
              `peak memory ${(result.server.peakPssMb ?? result.server.peakRssMb).toFixed(0)} MB (PSS: ${result.server.byProcess.map((p) => `${p.name} ${p.peakPssMb} MB`).join(", ")}; ` +
              `summed RSS ${result.server.peakRssMb.toFixed(0)} MB), rows ${result.rows.total}, ` +
              `statements ${st ? `${st.total} (${st.writes} writes)` : "n/a"}, stream p95 ${result.stream.p95Ms.toFixed(1)} ms`,
          );
          tree.push(result);
        }
        // The lean peer at the same size, on the same fakes, right after (issue 25's side-by-side figure).
        const runs: PeerResult[] = [];
        const peerWorld = { concurrency: peerConcurrency, llmBaseUrl: fakes.env.OPENAI_BASE_URL, searxngUrl: fakes.env.SEARXNG_URL };
        // Its first researches in this process load and compile its code: the warm-up Quarry's server gets (bench/tree/warm-up.ts).
        if (peerRuns > 0 && peer.length === 0) {
          for (let i = 0; i < WARM_UP.researches; i++) await runTreePeer({ ...peerWorld, prompt: `Warm-up run ${i + 1}`, depth: WARM_UP.depth, breadth: WARM_UP.breadth });
        }
        for (let i = 0; i < peerRuns; i++) {
          const r = await runTreePeer({ ...peerWorld, prompt: benchPrompt(depth, breadth), depth, breadth });
          log(`peer ${depth}x${breadth} (concurrency ${peerConcurrency}) run ${i + 1}: ${(r.wallMs / 1000).toFixed(2)} s, ${r.llmCalls} LLM calls, ${r.promptTokens} prompt tokens, ${r.failedQueries} failed queries`);
          runs.push(r);
        }
        if (runs.length) peer.push(peerRow(depth, breadth, peerConcurrency, latencies, runs));
      }
      for (const database of runFaults ? databases : []) {
        const { depth, breadth } = faultsConfig;
        log(`faults ${depth}x${breadth} ${database}: running with ${faultMix.rate429 * 100}% 429 (Retry-After ${faultMix.retryAfterSeconds} s) + ${faultMix.rate500 * 100}% 500`);
        const result = await runTree({ depth, breadth, database, latencies, limits, contextTokenBudget, fakes, faults: faultMix,
          serverNodeArgs: values["server-node-args"]?.split(/\s+/).filter(Boolean) ?? [] });
        const f = result.faults!;
        // A run that lost branches built a smaller tree: hold it against the whole tree's bound.
        const clean = tree.find((t) => t.depth === depth && t.breadth === breadth && t.database === database);
        if (clean) Object.assign(f, { faultFreeBoundMs: clean.bound.boundMs, boundFrom: "fault-free row", ratioToFaultFreeBound: result.wallMs / clean.bound.boundMs });
        log(
          `faults ${depth}x${breadth} ${database}: ${result.status}${f.timedOut ? " (timed out)" : ""}, ${(result.wallMs / 1000).toFixed(2)} s wall, ` +
            `fault-free bound ${(f.faultFreeBoundMs / 1000).toFixed(2)} s (${f.boundFrom}), ratio ${f.ratioToFaultFreeBound.toFixed(3)}, queries completed ${f.completedQueries}/${f.plannedQueries}, ` +
            `injected ${f.proxy.injected429}×429 + ${f.proxy.injected500}×500, retries ${f.proxy.repeats}${f.error ? `; error: ${f.error}` : ""}`,
        );
        faults.push(result);
      }
    } finally {
      await fakes.stop();
    }
  }

  // The same tree sizes on the overlapping web, each with the peer's runs (issue 57; bench/tree/overlap-rows.ts).
  let overlapWeb: OverlapRows | undefined;
  if (runTreePart && overlapPages > 0) {
    overlapWeb = await runOverlapRows({ configs, databases, latencies, limits, contextTokenBudget, pages: overlapPages, peerRuns, peerConcurrency, warmPeer: peer.length === 0,
      serverNodeArgs: values["server-node-args"]?.split(/\s+/).filter(Boolean) ?? [], profileDir: values.profile && path.resolve(values.profile), log });
  }

  const largeWeb: TreeRunResult[] = [];
  const largeWebLoad: number[] = [];
  if (runLargeWeb) {
    const fakes = await startFakesProcess(latencies, { failingPageShare: Number(values["failing-page-share"]), webPages });
    try {
      const { depth, breadth } = largeWebConfig;
      for (const database of databases) {
        largeWebLoad.push(loadavg()[0]);
        log(`large web ${depth}x${breadth} ${database} (${webPages} pages, load ${largeWebLoad.at(-1)!.toFixed(1)}): running`);
        const result = await runTree({ depth, breadth, database, latencies, limits, contextTokenBudget, fakes,
          profileDir: values.profile && path.resolve(values.profile),
          serverNodeArgs: values["server-node-args"]?.split(/\s+/).filter(Boolean) ?? [] });
        const ld = result.loopDelay;
        log(
          `large web ${depth}x${breadth} ${database}: ${result.status}, ${(result.wallMs / 1000).toFixed(2)} s wall, ${result.web?.distinctFetched} distinct pages read ` +
            `(${((result.web?.bytesFetched ?? 0) / 1024 / 1024).toFixed(1)} MB), loop delay p99 ${ld ? ld.p99Ms : "n/a"} ms, stream p95 ${result.stream.p95Ms.toFixed(1)} ms, ` +
            `peak memory ${(result.server.peakPssMb ?? result.server.peakRssMb).toFixed(0)} MB (PSS; summed RSS ${result.server.peakRssMb.toFixed(0)} MB), CPU ${result.cpuMsPerLlmCall?.toFixed(1)} ms per LLM call, status ${((result.statusLeanBytes ?? 0) / 1024).toFixed(1)} KB`,
        );
        largeWeb.push(result);
      }
    } finally {
      await fakes.stop();
    }
  }

  const llmTps: LlmTpsResult[] = [];
  if (runLlmTps) {
    if (llmTpsRequest.tokensPerSecond <= 0) throw new Error("--tps must be above 0");
    const fakes = await startFakesProcess(latencies);
    try {
      log(`llm-tps ${llmTpsRequest.depth}x${llmTpsRequest.breadth} at ${llmTpsRequest.tokensPerSecond} tokens/s: running`);
      llmTps.push(await runLlmTpsBench({ ...llmTpsRequest, latencies, limits, contextTokenBudget, fakes, log }));
    } finally {
      await fakes.stop();
    }
  }

  let answer: AnswerRunResult[] = [];
  if (runAnswer) {
    const fakes = await startFakesProcess(latencies, { failingPageShare: Number(values["failing-page-share"]) });
    try {
      answer = await runAnswerBench({ fakes, latencies, questions: smoke ? ["What is 1+1=?", "How much storage did grid batteries add in 2024?"] : undefined, log });
    } finally {
      await fakes.stop();
    }
  }

  let deepResearch: DrBenchResult | undefined;
  if (runDeepResearch) {
    log("deep research: running");
    const fakes = await startFakesProcess(latencies);
    try {
      deepResearch = await runDeepResearchBench({
        latencies, limits, contextTokenBudget, fakes,
        tree: smoke ? { depth: 1, breadth: 1 } : { depth: 2, breadth: 3 },
        flatIterations: positive("dr-long-iterations", values["dr-long-iterations"], smoke ? 4 : 20),
        literatureAnalyzeConcurrency: positive("literature-analyze-concurrency", values["literature-analyze-concurrency"], 2),
      });
      log(`deep research: ${(deepResearch.wallMs / 1000).toFixed(2)} s wall, loop bound ${(deepResearch.loopBoundMs / 1000).toFixed(2)} s (ratio ${deepResearch.loopRatio.toFixed(3)}), ` +
        `computed bound ${(deepResearch.boundMs / 1000).toFixed(2)} s (ratio ${deepResearch.ratio.toFixed(3)}); ` +
        `long run last/third prompt tokens ${deepResearch.flat.lastToThird.toFixed(2)}`);
    } finally {
      await fakes.stop();
    }
  }

  let datasets: DatasetsBenchResult | undefined;
  if (runDatasets) {
    datasets = await runDatasetsBench({ sizeMb: smoke ? 5 : 100, repetitions: smoke ? 3 : 10, log });
    log(`datasets: ${(datasets.fileBytes / 1024 / 1024).toFixed(1)} MB CSV loaded in ${(datasets.loadMs / 1000).toFixed(2)} s; analysis query p95 ${datasets.stepP95Ms} ms`);
  }

  let misbehave: MisbehaveBenchResult | undefined;
  if (runMisbehave) {
    log(`misbehave: ${misbehaveRequest.modes.map((m) => m ?? "none").join(", ")} (tree ${misbehaveRequest.depth}x${misbehaveRequest.breadth})`);
    misbehave = await runMisbehaveBench(misbehaveRequest, { log });
  }

  let exportsRow: ExportsBenchResult | undefined;
  if (runExports) exportsRow = await runExportsBench({ log });
  const chatClients: ChatClientsBenchResult | undefined = runChatClients ? await runChatClientsBench({ log }) : undefined;

  const knowledge: KnowledgeBenchResult[] = [];
  if (runKnowledge) {
    for (const database of databases) {
      const row = runKnowledgeBench({ database, docs: smoke ? 50 : 1_000, queries: smoke ? 20 : 200, log });
      log(`knowledge (${database}): ${row.pagesPerSecond} pages/s; search p50 ${row.searchP50Ms} ms, p95 ${row.searchP95Ms} ms`);
      knowledge.push(row);
    }
    // Hybrid, end to end against the fake LLM's /v1/embeddings (issue 53): 200 documents, on SQLite.
    const hybrid = runKnowledgeBench({ database: "sqlite", embeddings: true, docs: smoke ? 20 : 200, queries: smoke ? 10 : 100, log });
    log(`knowledge (sqlite, hybrid): ${hybrid.pagesPerSecond} pages/s; search p50 ${hybrid.searchP50Ms} ms, p95 ${hybrid.searchP95Ms} ms`);
    knowledge.push(hybrid);
  }

  let queue: QueueBenchResult | undefined;
  if (runQueue) {
    const fakes = await startFakesProcess(latencies);
    try {
      queue = await runQueueBench({ profileDir: values.profile && path.resolve(values.profile), fakes,
        // The rows' workers' slots for query nodes (--part-concurrency N; default: as their slots for runs).
        ...(values["part-concurrency"] ? { rowsPartConcurrency: Number(values["part-concurrency"]) } : {}), latencies, limits, contextTokenBudget, redisUrl: process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379",
        ...(smoke ? { researches: 2, depth: 1, breadth: 2 } : {}),
        // The rows in interleaved rounds, 1 worker then 2 (--queue-rows-runs N; smoke 1).
        rowsRuns: positive("queue-rows-runs", values["queue-rows-runs"], smoke ? 1 : 3),
        // A single (5, 5) on 2 workers against the embedded mode's (--queue-single 0: not run).
        ...(values["queue-single"] === "0" ? {} : { singleTree: { ...config(values["queue-single"] ?? (smoke ? "1x2" : "5x5")), workers: 2, runs: positive("queue-single-runs", values["queue-single-runs"], smoke ? 1 : 3), modes: singleModes(values["queue-single-modes"]) } }),
        // A worker killed with SIGKILL mid-tree, then one holding the run's lease (--queue-recovery 0: not run).
        ...(values["queue-recovery"] === "0" ? {} : { recovery: config(values["queue-recovery"] ?? (smoke ? "2x2" : "3x3")) }),
        log });
      if (queue.rows.length > 0) log(`queue: wall on ${queue.rows.at(-1)!.workers} workers ÷ on ${queue.rows[0].workers} = ${queue.ratio.toFixed(3)}${queue.ratios && queue.ratios.length > 1 ? ` (the median of ${queue.ratios.map((r) => r.toFixed(3)).join(", ")})` : ""}`);
    } finally {
      await fakes.stop();
    }
  }

  let extraction: ExtractionResult | undefined;
  let extractionQuality: QualityResult | undefined;
  if (runExtraction) {
    log("extraction: running");
    extraction = await runExtractionBench({ ...(smoke ? SMOKE_OPTIONS : {}), log });
    extractionQuality = await runExtractionQuality();
    const q = extractionQuality.rows[0];
    log(`extraction quality (${q.label}): tuned F1 ${q.tuned.f1.toFixed(3)} (P ${q.tuned.precision.toFixed(3)}, R ${q.tuned.recall.toFixed(3)}), ` +
      `held out F1 ${q.heldOut.f1.toFixed(3)} (P ${q.heldOut.precision.toFixed(3)}, R ${q.heldOut.recall.toFixed(3)})`);
  }

  const result = {
    benchmark: "quarry",
    smoke,
    databases,
    startedAt: new Date().toISOString(),
    environment: { node: process.version, cpus: cpus().length, memoryGb: Math.round(totalmem() / 1024 ** 3), machine },
    latencies,
    limits,
    contextTokenBudget,
    failingPageShare: Number(values["failing-page-share"]),
    targets: TARGETS,
    tree,
    peer,
    overlapWeb,
    faults,
    largeWeb,
    largeWebLoad,
    webPages,
    answer,
    extraction: extraction && { ...extraction, markdown: undefined },
    extractionQuality: extractionQuality && { ...extractionQuality, markdown: undefined },
    deepResearch,
    datasets,
    knowledge,
    queue,
    misbehave,
    exports: exportsRow,
    chatClients,
    llmTps,
  };
  const markdown =
    formatBenchMarkdown({ ...result, extractionMarkdown: extraction && `${extraction.markdown}\n${extractionQuality?.markdown ?? ""}` }) +
    (peer.length ? `\n${formatPeerMarkdown(peer, tree)}` : "") +
    (overlapWeb ? `\n${formatWebsMarkdown([{ name: "distinct", overlap: false, tree, peer }, { name: `overlapping (${overlapWeb.pages} pages)`, overlap: true, tree: overlapWeb.tree, peer: overlapWeb.peer }])}` : "") +
    (largeWeb.length ? `\n${formatLargeWebMarkdown(largeWeb, largeWebLoad)}` : "") +
    (llmTps.length ? `\n${formatLlmTpsMarkdown(llmTps)}` : "") +
    (answer.length ? `\n${formatAnswerMarkdown(answer)}` : "") +
    (deepResearch ? `\n${formatDeepResearchMarkdown(deepResearch)}` : "") +
    (datasets ? `\n${formatDatasetsMarkdown(datasets)}` : "") +
    (knowledge.length ? `\n${formatKnowledgeMarkdown(knowledge)}` : "") +
    (queue ? `\n${formatQueueMarkdown(queue)}` : "") +
    (misbehave ? `\n${formatMisbehaveMarkdown(misbehave)}` : "") +
    (exportsRow ? `\n${formatExportsMarkdown(exportsRow)}` : "") +
    (chatClients ? `\n${formatChatClientsMarkdown(chatClients)}` : "");
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(outDir, "latest.md"), markdown);
  console.log(markdown);
  log(`wrote ${path.relative(ROOT, path.join(outDir, "latest.json"))} and latest.md`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
