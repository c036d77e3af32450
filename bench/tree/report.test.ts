// The report labels every row with its database, reads results recorded before --database (no
// `database`, no `statements`: SQLite, n/a), and puts the two databases side by side.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { formatBenchMarkdown, type BenchSummary } from "./report";
import type { TreeRunResult } from "./run-tree";

const recorded = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "results", "latest.json"), "utf8")) as BenchSummary;

test("results recorded before --database read as SQLite, statements n/a", () => {
  // As recorded before the option (bench/results/latest.json may since have been rerun with it).
  const { database: _database, statements: _statements, ...old } = recorded.tree[0] as TreeRunResult;
  const { databases: _databases, ...summary } = recorded as BenchSummary & { databases?: unknown };
  const md = formatBenchMarkdown({ ...summary, tree: [old], faults: [] } as BenchSummary);
  assert.match(md, /Database: SQLite\./);
  assert.match(md, new RegExp(`\\| ${old.depth} × ${old.breadth} \\| SQLite \\| .* \\| n/a \\|`));
  assert.doesNotMatch(md, /side by side/);
});

test("--database both: a row per database, and the two side by side", () => {
  const base = recorded.tree[0] as TreeRunResult;
  const sqlite: TreeRunResult = { ...base, database: "sqlite", statements: { total: 3600, writes: 1800, reads: 1000, transactions: 800 } };
  const postgres: TreeRunResult = { ...base, database: "postgres", ratio: 1.5, statements: { total: 3610, writes: 1800, reads: 1010, transactions: 800 } };
  const md = formatBenchMarkdown({ ...recorded, databases: ["sqlite", "postgres"], tree: [sqlite, postgres], faults: [] });
  assert.match(md, /Database: SQLite and PostgreSQL\./);
  assert.match(md, /\| PostgreSQL \|.*\| 3610 \(1800 writes\) \|/);
  assert.match(md, /## 7\. SQLite and PostgreSQL side by side/);
  assert.match(md, new RegExp(`\\| ${base.depth} × ${base.breadth} \\| ${base.ratio.toFixed(3)} / 1\\.500 \\|.*\\| 3600 / 3610 \\|`));
});

test("the machine's calibration is in the header when recorded, and a result from before it reads without it", () => {
  const { machine: _machine, ...environment } = recorded.environment;
  assert.doesNotMatch(formatBenchMarkdown({ ...recorded, environment }), /loopback/);
  const md = formatBenchMarkdown({ ...recorded, environment: { ...environment, machine: { loopbackRoundTripCpuUs: 45.3, jsonLoopMs: 480 } } });
  assert.match(md, /cores · \d+ GB · a loopback round trip 45\.3 µs of CPU, the JSON loop 480 ms \(bench\/machine\.ts\)\. Latencies/);
});
