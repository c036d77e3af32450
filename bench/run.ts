// npm run bench: the production build against the loopback fakes with fixed latencies.
//   npm run bench                       tree runs (2,3) (3,4) (5,5) + extraction → bench/results/latest.{json,md}
//   npm run bench -- --smoke            a tiny run of every part (CI) → bench/results/tmp/
//   options: --configs 2x3,5x5  --llm-latency 150 --search-latency 80 --web-latency 60
//            --llm-concurrency 8 --only tree|extraction  --no-build  --out DIR
//            --profile DIR (the server's CPU profile of each tree run, for Chrome DevTools)
//            --server-node-args=--max-semi-space-size=64 (extra flags for the server's node; note the =)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIsStale } from "../scripts/build-state.mjs";
import { runExtractionBench, SMOKE_OPTIONS, type ExtractionResult } from "./extraction";
import type { BoundLatencies, BoundLimits } from "./tree/bound";
import { startFakesProcess } from "./tree/fakes-process";
import { formatBenchMarkdown, TARGETS } from "./tree/report";
import { runTree, type TreeRunResult } from "./tree/run-tree";

const ROOT = path.resolve(import.meta.dirname, "..");

const { values } = parseArgs({
  options: {
    smoke: { type: "boolean", default: false },
    configs: { type: "string" },
    "llm-latency": { type: "string" },
    "search-latency": { type: "string" },
    "web-latency": { type: "string" },
    "llm-concurrency": { type: "string", default: "8" },
    "search-concurrency": { type: "string", default: "4" },
    "fetch-concurrency": { type: "string", default: "8" },
    "analyze-concurrency": { type: "string", default: "1" },
    "context-budget": { type: "string", default: "6000" },
    "failing-page-share": { type: "string", default: "0" },
    only: { type: "string" },
    "no-build": { type: "boolean", default: false },
    out: { type: "string" },
    profile: { type: "string" },
    "server-node-args": { type: "string" },
  },
});

function positive(name: string, raw: string | undefined, fallback: number): number {
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got "${raw}"`);
  return value;
}

const smoke = values.smoke;
const configs = (values.configs ?? (smoke ? "1x2" : "2x3,3x4,5x5")).split(",").map((c) => {
  const m = /^(\d+)x(\d+)$/.exec(c.trim());
  if (!m) throw new Error(`--configs takes DEPTHxBREADTH pairs such as 2x3,5x5, got "${c}"`);
  return { depth: Number(m[1]), breadth: Number(m[2]) };
});
const latencies: BoundLatencies = {
  llmMs: positive("llm-latency", values["llm-latency"], smoke ? 20 : 150),
  searchMs: positive("search-latency", values["search-latency"], smoke ? 10 : 80),
  webMs: positive("web-latency", values["web-latency"], smoke ? 10 : 60),
};
const limits: BoundLimits = {
  llmConcurrency: positive("llm-concurrency", values["llm-concurrency"], 8),
  searchConcurrency: positive("search-concurrency", values["search-concurrency"], 4),
  fetchConcurrency: positive("fetch-concurrency", values["fetch-concurrency"], 8),
  analyzeConcurrencyPerQuery: positive("analyze-concurrency", values["analyze-concurrency"], 1),
};
const contextTokenBudget = positive("context-budget", values["context-budget"], 6000);
const outDir = path.resolve(values.out ?? path.join(ROOT, "bench", "results", smoke ? "tmp" : ""));
const runTreePart = values.only !== "extraction";
const runExtraction = values.only !== "tree";
const log = (line: string) => console.error(`[bench] ${line}`);

async function main(): Promise<void> {
  if (runTreePart && !values["no-build"] && buildIsStale(ROOT)) {
    log("building the app (next build)");
    const build = spawnSync("npx", ["next", "build"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) throw new Error("next build failed");
  }

  const tree: TreeRunResult[] = [];
  if (runTreePart) {
    const fakes = await startFakesProcess(latencies, { failingPageShare: Number(values["failing-page-share"]) });
    try {
      for (const { depth, breadth } of configs) {
        log(`tree ${depth}x${breadth}: running`);
        const result = await runTree({ depth, breadth, latencies, limits, contextTokenBudget, fakes, profileDir: values.profile && path.resolve(values.profile),
          serverNodeArgs: values["server-node-args"]?.split(/\s+/).filter(Boolean) ?? [] });
        log(
          `tree ${depth}x${breadth}: ${(result.wallMs / 1000).toFixed(2)} s wall, bound ${(result.bound.boundMs / 1000).toFixed(2)} s ` +
            `(${result.bound.limitedBy}), ratio ${result.ratio.toFixed(3)}, CPU ${result.server.cpuSeconds.toFixed(2)} s, ` +
            `peak RSS ${result.server.peakRssMb.toFixed(0)} MB, stream p95 ${result.stream.p95Ms.toFixed(1)} ms`,
        );
        tree.push(result);
      }
    } finally {
      await fakes.stop();
    }
  }

  let extraction: ExtractionResult | undefined;
  if (runExtraction) {
    log("extraction: running");
    extraction = await runExtractionBench({ ...(smoke ? SMOKE_OPTIONS : {}), log });
  }

  const result = {
    benchmark: "quarry",
    smoke,
    startedAt: new Date().toISOString(),
    environment: { node: process.version, cpus: cpus().length, memoryGb: Math.round(totalmem() / 1024 ** 3) },
    latencies,
    limits,
    contextTokenBudget,
    failingPageShare: Number(values["failing-page-share"]),
    targets: TARGETS,
    tree,
    extraction: extraction && { ...extraction, markdown: undefined },
  };
  const markdown = formatBenchMarkdown({ ...result, extractionMarkdown: extraction?.markdown });
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
