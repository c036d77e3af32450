#!/usr/bin/env node
// npm test: builds the app, runs every unit and integration test (node:test via tsx), the storage
// and engine tests a second time on PostgreSQL, and the Playwright specs (Debian's Chromium), and
// prints one closing line "N passed, N failed".
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);
const args = new Set(process.argv.slice(2));
// --unit, --integration and --e2e pick parts; without any of them every part runs (other flags,
// such as --no-build, do not pick).
const picked = ["unit", "integration", "e2e"].filter((name) => args.has(`--${name}`));
const only = (name) => picked.length === 0 || picked.includes(name);

function run(cmd, cmdArgs, { env, ...options } = {}) {
  console.log(`\n$ ${cmd} ${cmdArgs.join(" ")}`);
  // The child inherits the whole environment (PATH, HOME…), with `env` laid over it.
  return spawnSync(cmd, cmdArgs, { stdio: "inherit", ...options, env: { ...process.env, ...env } }).status ?? 1;
}

/**
 * Runs a part of the suite with its output in test-results/<name>.log, printed whole when the part
 * ends (parts run side by side, so their lines are not interleaved). Resolves to the exit status.
 */
function runPart(name, cmd, cmdArgs, env = {}) {
  const log = path.join(root, "test-results", `${name}.log`);
  const out = fs.openSync(log, "w");
  console.log(`\n$ ${cmd} ${cmdArgs.join(" ")}\n  (${name}: its output goes to test-results/${name}.log and is printed when it ends)`);
  const child = spawn(cmd, cmdArgs, { stdio: ["ignore", out, out], env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code) => {
      fs.closeSync(out);
      console.log(`\n===== ${name} (test-results/${name}.log) =====`);
      process.stdout.write(fs.readFileSync(log));
      resolve(code ?? 1);
    });
  });
}

function findTests(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", ".next", ".git", "data", "e2e", "test-results"].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) findTests(full, out);
    else if (entry.name.endsWith(".test.ts")) out.push(path.relative(root, full));
  }
  return out.sort();
}

function ensureChromium() {
  if (fs.existsSync("/usr/bin/chromium")) return;
  if (process.getuid?.() !== 0) {
    console.error("Chromium is missing: install Debian's package with `sudo apt-get install -y chromium` and run npm test again.");
    process.exit(1);
  }
  if (run("apt-get", ["update"]) !== 0 || run("apt-get", ["install", "-y", "chromium"], { env: { DEBIAN_FRONTEND: "noninteractive" } }) !== 0) {
    console.error("Could not install chromium with apt-get.");
    process.exit(1);
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
/** One line per failed test, printed again under the closing line (a CI log's tail shows them). */
const failures = [];

/** The failed tests of a TAP file: name, location and the error's first line; parents that failed
 * only because a subtest did are left out. */
function tapFailures(text, suite) {
  const lines = text.split("\n");
  const out = [];
  lines.forEach((line, i) => {
    const failure = line.match(/^(\s*)not ok \d+ - (.*)$/);
    if (!failure) return;
    let location = "";
    let error = "";
    for (let j = i + 1; j < lines.length && !/^\s*(ok|not ok) \d+/.test(lines[j]) && !/^\s*# Subtest/.test(lines[j]); j++) {
      const field = lines[j].match(/^\s*(location|error): (.*)$/);
      if (field?.[1] === "location") location = field[2].replace(/^'|'$/g, "").replace(`${root}/`, "");
      if (field?.[1] === "error") error = field[2] === "|-" || field[2] === ">-" ? (lines[j + 1] ?? "").trim() : field[2].replace(/^'|'$/g, "");
    }
    if (/^\d+ subtests? failed$/.test(error)) return;
    out.push(`${suite}: ${failure[2]}${location ? ` (${location})` : ""}${error ? ` — ${error.slice(0, 200)}` : ""}`);
  });
  return out;
}

fs.rmSync(path.join(root, "data", "test"), { recursive: true, force: true });
fs.mkdirSync(path.join(root, "test-results"), { recursive: true });

if (!args.has("--no-build") && (only("integration") || only("e2e"))) {
  if (run("npm", ["run", "build"]) !== 0) {
    console.error("npm run build failed");
    console.log("\n0 passed, 1 failed");
    process.exit(1);
  }
}

// The storage and engine tests, run a second time on PostgreSQL (TEST_DATABASE=postgres: each test
// database is created on TEST_POSTGRES_URL's server from prisma/postgres/migrations, and dropped).
const POSTGRES_TESTS = [
  "lib/auth/api-tokens.test.ts",
  "lib/runs/limits.test.ts",
  "lib/auth/share-links.test.ts",
  "lib/db/schema-drift.test.ts",
  "lib/db/research.test.ts",
  "lib/db/tree.test.ts",
  "lib/db/direct.test.ts",
  "lib/explore/explore.test.ts",
  "lib/explore/distributed.test.ts",
  // Writes overlapped with a query's next step (held by a trigger: PostgreSQL only).
  "lib/explore/overlap.test.ts",
  "lib/explore/page-wait.test.ts",
  "lib/db/answers.test.ts",
  "lib/db/deep-research.test.ts",
  "lib/deep-research/status.test.ts",
  "lib/db/runs.test.ts",
  "lib/runs/registry.test.ts",
  "lib/runs/live.test.ts",
  "lib/verification/verify-report.test.ts",
  // Verdicts taken while the report streams, both passes saved in one transaction.
  "lib/verification/streamed.test.ts",
  "lib/knowledge/knowledge.test.ts",
  "lib/knowledge/shared-folder.test.ts",
  "lib/knowledge/hybrid-search.test.ts",
  "lib/knowledge/vector-store.test.ts",
  "test/integration/tree-research.test.ts",
  "test/integration/event-sequence.test.ts",
  "test/integration/follow-up.test.ts",
  "test/integration/resume-and-failure.test.ts",
  "test/integration/runs-two-processes.test.ts",
  "test/integration/runs-cancel-across-processes.test.ts",
  "test/integration/answer-agent.test.ts",
  "test/integration/answer-clients.test.ts",
  "test/integration/deep-research.test.ts",
  "test/integration/deep-research-resume.test.ts",
  "test/integration/outside-text.test.ts",
  // The fuzz reaches the database with ids, filters and text no database can hold (NUL, year 0): ~2 min.
  "test/integration/fuzz.test.ts",
  "test/integration/dataset-uploads.test.ts",
  "test/integration/planning-limits.test.ts",
  "test/integration/deep-research-analysis.test.ts",
  "test/integration/verification.test.ts",
  "test/integration/report-exports.test.ts",
  "test/integration/deep-research-verification.test.ts",
  "test/integration/deep-research-exports.test.ts",
  "test/integration/knowledge-base.test.ts",
  "test/integration/knowledge-research.test.ts",
  "test/integration/openai-params.test.ts",
  // Two instances streaming each other's runs (PostgreSQL: LISTEN/NOTIFY; and with Redis).
  "test/integration/events-across-instances.test.ts",
  "test/integration/knowledge-hybrid.test.ts",
  // Paging, sorting and filters of a collection's documents in SQL.
  "test/integration/knowledge-documents.test.ts",
];
const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";

const isIntegration = (f) => f.startsWith("test/integration/");
const inPickedParts = (f) => (isIntegration(f) ? only("integration") : only("unit"));

/**
 * Test files run two at a time where there are two cores (each has its own databases, ports and Redis
 * prefix; much of a file's time is its servers' and fakes' latencies): on CI's 2 cores the unit and
 * integration tests on both databases took 12.6 minutes this way. TEST_CONCURRENCY=1 runs them one at a time.
 */
const TEST_CONCURRENCY = Number(process.env.TEST_CONCURRENCY) || Math.min(2, os.availableParallelism());

/**
 * The slowest files (the seconds of their tests on a CI machine of 2 cores, 2026-11-28, SQLite / PostgreSQL)
 * start first: the runner takes files in order, two at a time, and a long file started last runs alone
 * at the end while the other core idles (longest first packs the two lanes). The rest keep their order.
 */
const SLOW_FIRST = [
  "test/integration/fuzz.test.ts", // 140 / 206 s
  "test/integration/fault-tolerance.test.ts", // 156 s
  "test/integration/cli.test.ts", // 113 s
  "test/integration/events-across-instances.test.ts", // 65 / 86 s
  "test/integration/queue-mode.test.ts", // 82 s
  "test/integration/queue-fleet.test.ts", // 67 s
  "test/integration/deep-research.test.ts", // 44 / 58 s
  "test/integration/event-sequence.test.ts", // 44 / 52 s
  "test/integration/queue-recovery.test.ts", // 48 s
  "lib/runs/limits.test.ts", // 44 / 48 s
  "test/integration/resume-and-failure.test.ts", // 44 / 47 s
  "test/integration/rate-limits.test.ts", // 35 s
  "test/integration/authz.test.ts", // 34 s
  "test/integration/runs-cancel-across-processes.test.ts", // 30 / 34 s
];
const slowRank = (file) => {
  const i = SLOW_FIRST.indexOf(file);
  return i < 0 ? SLOW_FIRST.length : i;
};
const slowFirst = (files) => [...files].sort((a, b) => slowRank(a) - slowRank(b));

/** Minutes since `since` (a Date.now()), for the parts' closing lines. */
const minutes = (since) => ((Date.now() - since) / 60_000).toFixed(1);
/** "part: N min" per part, printed with the closing line (where CI's time goes). */
const timings = [];

async function runNodeTests(files, tapName, env = {}) {
  const started = Date.now();
  const tap = path.join(root, "test-results", tapName);
  fs.rmSync(tap, { force: true });
  await runPart(tapName.replace(/\.tap$/, ""), process.execPath, [
    "--import", "tsx", "--test", `--test-concurrency=${TEST_CONCURRENCY}`, "--test-timeout=600000",
    "--test-reporter=spec", "--test-reporter-destination=stdout",
    "--test-reporter=tap", `--test-reporter-destination=${tap}`,
    ...slowFirst(files),
  ], { NODE_ENV: "test", ...env });
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, "utf8") : "";
  const count = (name) => Number(text.match(new RegExp(`^# ${name} (\\d+)$`, "m"))?.[1] ?? 0);
  passed += count("pass");
  failed += count("fail") + count("cancelled");
  skipped += count("skipped");
  failures.push(...tapFailures(text, tapName.replace(/\.tap$/, "")));
  if (!text) {
    failed += 1;
    failures.push(`${tapName}: the test runner wrote no report`);
  }
  timings.push(`${tapName.replace(/\.tap$/, "")}: ${minutes(started)} min`);
}

/** Why PostgreSQL cannot be used, or null when it answers. */
async function postgresUnavailable() {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return error.message || String(error.code ?? error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The parts of the suite, started side by side (see PARTS_SIDE_BY_SIDE). */
const parts = [];
/**
 * The parts — the node tests on SQLite, the same storage and engine tests on PostgreSQL, and the
 * Playwright specs — run side by side: most of a test's time is its fakes' latencies and its
 * servers' start-up, not CPU, so on 2 cores the three together take little longer than the longest
 * alone. TEST_PARTS_IN_TURN=1 runs them one after another (as CI did until 2026-12).
 */
const PARTS_SIDE_BY_SIDE = process.env.TEST_PARTS_IN_TURN !== "1";
const startPart = async (part) => {
  if (PARTS_SIDE_BY_SIDE) parts.push(part());
  else await part();
};

if (only("unit") || only("integration")) {
  await startPart(() => runNodeTests(findTests(root).filter(inPickedParts), "node-tests.tap"));

  const onPostgres = POSTGRES_TESTS.filter(inPickedParts);
  if (onPostgres.length > 0) {
    const host = new URL(TEST_POSTGRES_URL).host;
    const unavailable = await postgresUnavailable();
    if (unavailable === null) {
      console.log(`\nThe storage and engine tests again, on PostgreSQL at ${host}:`);
      await startPart(() => runNodeTests(onPostgres, "node-tests-postgres.tap", { TEST_DATABASE: "postgres" }));
    } else if (process.env.CI === "true") {
      console.error(`\nPostgreSQL at ${host} does not answer (${unavailable}); CI requires it for:\n  ${onPostgres.join("\n  ")}`);
      failed += onPostgres.length;
    } else {
      console.log(`\nSKIPPED on PostgreSQL (${onPostgres.length} test files): PostgreSQL at ${host} does not answer (${unavailable}).`);
      console.log(`  ${onPostgres.join("\n  ")}`);
      console.log("  Start PostgreSQL there (or set TEST_POSTGRES_URL) to run them; they ran on SQLite above.");
      skipped += onPostgres.length;
    }
  }
}

async function runPlaywright() {
  const e2eStarted = Date.now();
  const report = path.join(root, "test-results", "playwright.json");
  fs.rmSync(report, { force: true });
  const status = await runPart("playwright", "npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    const stats = json.stats ?? {};
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== "unexpected") continue;
          const error = t.results?.at(-1)?.error?.message?.split("\n")[0] ?? "";
          failures.push(`playwright: ${spec.file}:${spec.line} › ${spec.title}${error ? ` — ${error.slice(0, 200)}` : ""}`);
        }
      }
      (suite.suites ?? []).forEach(walk);
    };
    (json.suites ?? []).forEach(walk);
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
    // A run that ends in error before or beside its tests (its web server could not start, a global
    // setup threw) may still write a report: it fails the run even with no failed test in it.
    if (status !== 0 && !(stats.unexpected > 0)) {
      failed += 1;
      failures.push(`playwright: exited ${status}${json.errors?.[0]?.message ? ` — ${json.errors[0].message.split("\n")[0].slice(0, 200)}` : ""}`);
    }
  } else {
    failed += 1;
    failures.push("playwright: no report was written");
  }
  timings.push(`playwright: ${minutes(e2eStarted)} min`);
}

if (only("e2e") && fs.existsSync(path.join(root, "playwright.config.ts"))) {
  ensureChromium();
  await startPart(runPlaywright);
}
await Promise.all(parts);

if (timings.length > 0) console.log(`\nTime per part: ${timings.join("; ")}`);
if (failures.length > 0) console.log(`\nFailed:\n  ${failures.join("\n  ")}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
