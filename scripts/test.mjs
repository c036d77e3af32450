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
/** TEST_FILES (comma-separated parts of paths): only the node test files whose path holds one of them. */
const fileFilter = process.env.TEST_FILES?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];
const inPickedParts = (f) => (isIntegration(f) ? only("integration") : only("unit")) && (fileFilter.length === 0 || fileFilter.some((part) => f.includes(part)));

/**
 * The node test files of every part (SQLite, and the storage and engine tests again on PostgreSQL) share
 * one pool of lanes: each lane runs one file at a time, the longest first (scripts/test-durations.json,
 * the seconds each file took in a full run), so the parts end together instead of one long part running
 * alone at the end while the other lanes idle. Much of a file's time is its servers' and fakes'
 * latencies, not CPU. With the Playwright specs beside them, 4 lanes; in turn, 2.
 * TEST_CONCURRENCY sets the number of lanes.
 */
const PARTS_SIDE_BY_SIDE = process.env.TEST_PARTS_IN_TURN !== "1";
const LANES = Number(process.env.TEST_CONCURRENCY) || (PARTS_SIDE_BY_SIDE ? 2 : 1) * Math.min(2, os.availableParallelism());
const DURATIONS_FILE = path.join(root, "scripts", "test-durations.json");
/** The seconds each file took ("sqlite:lib/x.test.ts" → s); a file not in it counts as 20 s. */
const knownDurations = fs.existsSync(DURATIONS_FILE) ? JSON.parse(fs.readFileSync(DURATIONS_FILE, "utf8")) : {};

/** Minutes since `since` (a Date.now()), for the parts' closing lines. */
const minutes = (since) => ((Date.now() - since) / 60_000).toFixed(1);
/** "part: N min" per part, printed with the closing line (where CI's time goes). */
const timings = [];

/** A node test file to run on a database: `part` names it in the logs and in test-durations.json. */
function nodeJob(file, part, env = {}) {
  return { file, part, env, key: `${part}:${file}` };
}

/**
 * Whether a file that fails beside the other lanes runs again alone when they are done (on CI, or with
 * TEST_RETRY_ALONE=1): a test stretched past a limit by the load of four lanes and a browser passes
 * alone, and one that fails alone too fails the run. Every such file is named in the closing lines
 * ("Passed only when run again alone"), with its first run's output printed whole, so that none hides.
 */
const RETRY_ALONE = process.env.TEST_RETRY_ALONE ? process.env.TEST_RETRY_ALONE === "1" : process.env.CI === "true";
/** Files that failed beside the other lanes and passed alone, with the tests that had failed. */
const flaky = [];

/** Whether a file's run passed: a report, exit 0 and no failed test in it. */
function fileOk(job, result) {
  return Boolean(result.tap) && result.code === 0 && tapFailures(result.tap, job.part).length === 0;
}

/** Runs one file (its own `node --test`), its spec output and TAP report under test-results/files/. */
function runNodeFile(job) {
  const base = path.join(root, "test-results", "files", job.part, job.file.replace(/[\/]/g, "__"));
  fs.mkdirSync(path.dirname(base), { recursive: true });
  const out = fs.openSync(`${base}.log`, "w");
  const started = Date.now();
  const child = spawn(process.execPath, [
    "--import", "tsx", "--test", "--test-timeout=600000",
    "--test-reporter=spec", "--test-reporter-destination=stdout",
    "--test-reporter=tap", `--test-reporter-destination=${base}.tap`,
    job.file,
  ], { stdio: ["ignore", out, out], env: { ...process.env, NODE_ENV: "test", TEST_ECHO_SERVER_STDERR: "1", ...job.env } });
  return new Promise((resolve) => {
    const done = (code) => {
      fs.closeSync(out);
      const tap = fs.existsSync(`${base}.tap`) ? fs.readFileSync(`${base}.tap`, "utf8") : "";
      resolve({ job, code, tap, log: fs.readFileSync(`${base}.log`, "utf8"), seconds: (Date.now() - started) / 1000 });
    };
    child.on("error", () => done(1));
    child.on("exit", (code) => done(code ?? 1));
  });
}

/**
 * Runs the jobs on LANES lanes, longest first. Each file's result is counted as it ends; a file's whole
 * output is printed when it failed, a line otherwise. Per part: its time, and its TAP reports joined in
 * test-results/<part>.tap. Every file's seconds go to test-results/test-durations.json (copy it over
 * scripts/test-durations.json to keep the order current).
 */
async function runNodeJobs(jobs) {
  const started = Date.now();
  const queue = [...jobs].sort((a, b) => (knownDurations[b.key] ?? 20) - (knownDurations[a.key] ?? 20));
  const partEnds = new Map();
  const partLeft = new Map();
  for (const job of jobs) partLeft.set(job.part, (partLeft.get(job.part) ?? 0) + 1);
  const durations = {};
  const taps = new Map();
  /** Counts a file's result (its tests, and a failure outside them) and prints its line or its whole output. */
  const account = (job, result) => {
    const count = (name) => Number(result.tap.match(new RegExp(`^# ${name} (\\d+)$`, "m"))?.[1] ?? 0);
    passed += count("pass");
    failed += count("fail") + count("cancelled");
    skipped += count("skipped");
    const fileFailures = tapFailures(result.tap, job.part);
    failures.push(...fileFailures);
    if (!result.tap) {
      failed += 1;
      failures.push(`${job.part}: ${job.file}: the test runner wrote no report (exit ${result.code})`);
    }
    durations[job.key] = Math.round(result.seconds);
    taps.set(job.part, `${taps.get(job.part) ?? ""}${result.tap}`);
    if (fileOk(job, result)) console.log(`✔ ${job.part}: ${job.file} (${result.seconds.toFixed(1)} s, ${count("pass")} passed${count("skipped") ? `, ${count("skipped")} skipped` : ""})`);
    else console.log(`\n✖ ${job.part}: ${job.file} (${result.seconds.toFixed(1)} s, exit ${result.code})\n${result.log}`);
    if (result.code !== 0 && result.tap && fileFailures.length === 0 && count("fail") + count("cancelled") === 0) {
      // The file's process failed outside any test (it threw while loading, a handle kept it open…).
      failed += 1;
      failures.push(`${job.part}: ${job.file}: exited ${result.code} outside its tests`);
    }
  };
  /** Files that failed beside the other lanes, run again alone once the lanes are done (RETRY_ALONE). */
  const again = [];
  const lane = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const result = await runNodeFile(job);
      if (RETRY_ALONE && !fileOk(job, result)) {
        console.log(`\n… ${job.part}: ${job.file} failed beside the other lanes (${result.seconds.toFixed(1)} s, exit ${result.code}); it runs again alone when the lanes are done. Its output:\n${result.log}`);
        again.push({ job, failedTests: tapFailures(result.tap, job.part) });
      } else account(job, result);
      partLeft.set(job.part, partLeft.get(job.part) - 1);
      if (partLeft.get(job.part) === 0) partEnds.set(job.part, Date.now());
    }
  };
  console.log(`\n${jobs.length} node test files on ${LANES} lanes, the longest first (each file's output: test-results/files/<part>/)`);
  await Promise.all(Array.from({ length: Math.min(LANES, jobs.length) }, lane));
  for (const { job, failedTests } of again) {
    console.log(`\n… ${job.part}: ${job.file}: run again alone`);
    const result = await runNodeFile(job);
    // Counted as this run's result: a file that fails alone too fails the run.
    if (fileOk(job, result)) flaky.push(`${job.part}: ${job.file}: ${failedTests.length ? failedTests.map((f) => f.replace(`${job.part}: `, "")).join("; ") : "failed outside its tests"}`);
    account(job, result);
    partEnds.set(job.part, Date.now());
  }
  for (const [part, tap] of taps) fs.writeFileSync(path.join(root, "test-results", `${part}.tap`), tap);
  for (const [part, end] of partEnds) timings.push(`${part}: ${((end - started) / 60_000).toFixed(1)} min`);
  fs.writeFileSync(path.join(root, "test-results", "test-durations.json"), `${JSON.stringify({ ...knownDurations, ...durations }, Object.keys({ ...knownDurations, ...durations }).sort(), 2)}\n`);
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
const startPart = async (part) => {
  if (PARTS_SIDE_BY_SIDE) parts.push(part());
  else await part();
};

if (only("unit") || only("integration")) {
  const jobs = findTests(root).filter(inPickedParts).map((file) => nodeJob(file, "sqlite"));
  const onPostgres = POSTGRES_TESTS.filter(inPickedParts);
  if (onPostgres.length > 0) {
    const host = new URL(TEST_POSTGRES_URL).host;
    const unavailable = await postgresUnavailable();
    if (unavailable === null) {
      console.log(`\nThe storage and engine tests run again on PostgreSQL at ${host} (${onPostgres.length} files).`);
      jobs.push(...onPostgres.map((file) => nodeJob(file, "postgres", { TEST_DATABASE: "postgres" })));
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
  await startPart(() => runNodeJobs(jobs));
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
          if (t.status === "flaky") flaky.push(`playwright: ${spec.file}:${spec.line} › ${spec.title}: ${t.results?.[0]?.error?.message?.split("\n")[0]?.slice(0, 200) ?? "failed once"}`);
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
if (flaky.length > 0) console.log(`\nPassed only when run again (they failed once beside the other lanes; a node file's first output is above):\n  ${flaky.join("\n  ")}`);
if (failures.length > 0) console.log(`\nFailed:\n  ${failures.join("\n  ")}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
