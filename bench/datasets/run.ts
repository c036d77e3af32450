// The datasets row: the time to load a large CSV into DuckDB (lib/datasets/load.ts: the read, the
// strict CSV check, the profile) and the time of the queries an analysis step runs, in the product's
// sandbox with its default limits (ANALYSIS_THREADS=1, 512 MB, 5 s). It runs in this process, not
// through the server: an analysis step's query time is the sandbox's, and the engine around it is
// the Deep Research row's. The CSV is generated (deterministic) to the size asked.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { databasePath, loadDatasets } from "../../lib/datasets/load";
import { DatasetSandbox } from "../../lib/datasets/query";

/** The kinds of query the analysis agent writes: grouped aggregates, top-N, filters, distincts, quantiles, windows. */
export const STEP_QUERIES: [string, string][] = [
  ["group by region", "SELECT region, sum(units) AS units, round(avg(price), 2) AS avg_price, count(*) AS n FROM sales GROUP BY region ORDER BY region"],
  ["top 10 by revenue", "SELECT product, round(sum(units * price), 2) AS revenue FROM sales GROUP BY product ORDER BY revenue DESC LIMIT 10"],
  ["filtered count", "SELECT count(*) AS n FROM sales WHERE price BETWEEN 10 AND 20 AND units > 25"],
  ["distinct count", "SELECT count(DISTINCT customer) AS customers FROM sales"],
  ["quantiles", "SELECT region, quantile_cont(price, 0.5) AS median, quantile_cont(price, 0.95) AS p95 FROM sales GROUP BY region ORDER BY region"],
  ["monthly window", "WITH m AS (SELECT date_trunc('month', day) AS month, sum(units) AS units FROM sales GROUP BY 1) SELECT month, units, sum(units) OVER (ORDER BY month) AS running FROM m ORDER BY month"],
];

export interface DatasetsBenchResult {
  fileBytes: number;
  rows: number;
  loadMs: number;
  queries: { name: string; p50Ms: number; p95Ms: number; maxMs: number }[];
  stepP95Ms: number;
  samples: number;
}

function writeCsv(file: string, targetBytes: number): number {
  const fd = fs.openSync(file, "w");
  const regions = ["north", "south", "east", "west", "central"];
  let bytes = 0;
  let rows = 0;
  try {
    const header = "day,region,product,customer,units,price\n";
    fs.writeSync(fd, header);
    bytes += header.length;
    while (bytes < targetBytes) {
      const lines: string[] = [];
      for (let i = 0; i < 10_000; i++, rows++) {
        const day = new Date(Date.UTC(2020, 0, 1) + (rows % 1461) * 86_400_000).toISOString().slice(0, 10);
        lines.push(`${day},${regions[rows % 5]},product-${(rows * 7919) % 500},customer-${(rows * 104729) % 50_000},${(rows * 37) % 50 + 1},${(((rows * 13) % 4000) / 100 + 0.5).toFixed(2)}`);
      }
      const chunk = lines.join("\n") + "\n";
      fs.writeSync(fd, chunk);
      bytes += chunk.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return rows;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function runDatasetsBench({ sizeMb = 100, repetitions = 10, log = console.log }: { sizeMb?: number; repetitions?: number; log?: (m: string) => void } = {}): Promise<DatasetsBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-bench-datasets-"));
  try {
    const file = path.join(dir, "sales.csv");
    const rows = writeCsv(file, sizeMb * 1024 * 1024);
    const fileBytes = fs.statSync(file).size;
    log(`datasets: loading a ${(fileBytes / 1024 / 1024).toFixed(1)} MB CSV (${rows} rows)`);
    const [loaded] = await loadDatasets({ dbPath: databasePath(dir), files: [{ filename: "sales.csv", path: file }], maxBytes: fileBytes, memoryLimitMb: 512, keepTables: [] });
    if (!loaded.ok) throw new Error(loaded.error);
    if (loaded.profile.rowCount !== rows) throw new Error(`loaded ${loaded.profile.rowCount} rows of ${rows}`);
    const sandbox = await DatasetSandbox.open(databasePath(dir), { timeoutMs: 5_000, maxRows: 200, memoryLimitMb: 512, threads: 1 });
    const all: number[] = [];
    const queries: DatasetsBenchResult["queries"] = [];
    try {
      for (const [name, sql] of STEP_QUERIES) {
        const times: number[] = [];
        for (let i = 0; i < repetitions; i++) {
          const r = await sandbox.query(sql);
          if (!r.ok) throw new Error(`${name}: ${r.error}`);
          times.push(r.durationMs);
        }
        times.sort((a, b) => a - b);
        all.push(...times);
        queries.push({ name, p50Ms: pct(times, 50), p95Ms: pct(times, 95), maxMs: times.at(-1)! });
      }
    } finally {
      sandbox.close();
    }
    all.sort((a, b) => a - b);
    return { fileBytes, rows, loadMs: loaded.loadMs, queries, stepP95Ms: pct(all, 95), samples: all.length };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function formatDatasetsMarkdown(r: DatasetsBenchResult): string {
  return [
    "## Datasets: load and analysis query time",
    "",
    `A ${(r.fileBytes / 1024 / 1024).toFixed(1)} MB CSV (${r.rows.toLocaleString("en")} rows, 6 columns) loads in **${(r.loadMs / 1000).toFixed(2)} s** (read, strict CSV check, profile).`,
    `Analysis step queries in the sandbox (1 thread, 512 MB): p95 **${r.stepP95Ms} ms** over ${r.samples} runs.`,
    "",
    "| query | p50 | p95 | max |",
    "| --- | ---: | ---: | ---: |",
    ...r.queries.map((q) => `| ${q.name} | ${q.p50Ms} ms | ${q.p95Ms} ms | ${q.maxMs} ms |`),
    "",
  ].join("\n");
}
