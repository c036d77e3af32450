// The misbehaving model's rows (issue 51): every engine end to end under each mode of the fake LLM's
// misbehaving model (test/fakes/llm-misbehave.ts), in process against the loopback fakes and a SQLite
// test database (test/helpers/misbehaving-runs.ts, the harness of test/integration/misbehaving-model.test.ts),
// no latencies: the rows count what survives a model's habits, not how fast. One row per mode: the runs
// completed; the tree report's citations kept of those written; its claims judged and left unjudged (the
// Deep Research write-up's too); ANALYSIS tasks run of those planned; discoveries with linked evidence;
// whether the answer has references; leaked reasoning found. The harness runs in a child process: the
// product's modules read their environment (the fakes, a test database) when first imported.
import { fork } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MisbehaveMode } from "../../test/fakes/llm-misbehave";
import type { EngineRun, ModeRun } from "../../test/helpers/misbehaving-runs";
import { loaderArgs } from "../child-loader";

export interface MisbehaveRequest {
  /** null: the well-behaved scenario fake, as the reference row. */
  modes: (MisbehaveMode | null)[];
  depth: number;
  breadth: number;
}

export interface MisbehaveBenchResult {
  depth: number;
  breadth: number;
  rows: ModeRun[];
}

const CHILD_FLAG = "--misbehave-child";

async function runInProcess(req: MisbehaveRequest): Promise<ModeRun[]> {
  const { startMisbehaveHarness } = await import("../../test/helpers/misbehaving-runs");
  const harness = await startMisbehaveHarness({ depth: req.depth, breadth: req.breadth });
  try {
    const rows: ModeRun[] = [];
    for (const mode of req.modes) rows.push(await harness.run(mode));
    return rows;
  } finally {
    await harness.stop();
  }
}


export function runMisbehaveBench(req: MisbehaveRequest, { log = console.error, timeoutMs = 20 * 60_000 }: { log?: (line: string) => void; timeoutMs?: number } = {}): Promise<MisbehaveBenchResult> {
  return new Promise((resolve, reject) => {
    // The product's logs (a degraded verification, a dropped evidence id) go to the bench's stderr, out of its report on stdout.
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { execArgv: loaderArgs(), env: { ...process.env, NODE_ENV: "test" }, stdio: ["ignore", 2, "inherit", "ipc"] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the misbehave child timed out after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    let rows: ModeRun[] | undefined;
    let failure: string | undefined;
    child.on("message", (msg: { rows?: ModeRun[]; error?: string }) => {
      rows = msg.rows;
      failure = msg.error;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (!rows) return reject(new Error(`the misbehave child failed (exit ${code})${failure ? `: ${failure}` : ""}`));
      for (const row of rows) log(`misbehave ${row.mode ?? "none"}: ${summary(row)}`);
      resolve({ depth: req.depth, breadth: req.breadth, rows });
    });
    child.send(req);
  });
}

const runOf = (row: ModeRun, engine: EngineRun["engine"]) => row.runs.find((r) => r.engine === engine);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? "–" : `${a}/${b}`);
/** Citations kept of those written, and how many sentences were judged unsupported (the only ones a repair may take). */
const kept = (run: EngineRun | undefined) => {
  const c = run?.citations;
  return c ? `${c.citationsStored}/${c.citationsWritten}${c.judgedUnsupported ? ` (${c.judgedUnsupported} unsupported)` : ""}` : "–";
};
const leaks = (row: ModeRun) => row.runs.reduce((n, r) => n + r.leaks.length, 0) + row.storedLeaks.length;

function summary(row: ModeRun): string {
  const failed = row.runs.filter((r) => !r.completed).map((r) => `${r.engine} ${r.status}${r.error ? ` (${r.error.slice(0, 160)})` : ""}`);
  return `${row.runs.length - failed.length}/${row.runs.length} completed${failed.length ? `; ${failed.join("; ")}` : ""}, ${leaks(row)} leaks, ${row.misbehaved}/${row.llmCalls} replies misbehaved, ${(row.ms / 1000).toFixed(1)} s`;
}

export function formatMisbehaveMarkdown(result: MisbehaveBenchResult): string {
  const lines = [
    `## The misbehaving model (issue 51): tree ${result.depth} × ${result.breadth}, a Deep Research iteration with a CSV, an answer`,
    "",
    "In process against the fakes (no latencies, SQLite). Citations and claims: the tree report (and the Deep Research write-up);",
    "judged: supported, partial or unsupported; unjudged: cited claims the verifier gave no usable verdict for.",
    "",
    "| mode | completed | citations kept | claims judged / unjudged | write-up judged / unjudged | ANALYSIS run | discoveries with evidence | answer references | reasoning leaks | replies changed | s |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const row of result.rows) {
    const tree = runOf(row, "tree");
    const dr = runOf(row, "deep-research");
    const answer = runOf(row, "answer");
    const completed = row.runs.map((r) => `${r.engine === "deep-research" ? "DR" : r.engine} ${r.completed ? "✓" : `✗ ${r.status}`}`).join(", ");
    lines.push(
      `| ${row.mode ?? "none (scenario fake)"} | ${completed} | ${kept(tree)} | ${ratio(tree?.citations?.judged, tree?.citations?.unjudged)} | ${ratio(dr?.citations?.judged, dr?.citations?.unjudged)} | ${ratio(dr?.analysisRun, dr?.analysisPlanned)} | ${ratio(dr?.discoveriesWithEvidence, dr?.discoveries)} | ${answer?.references ?? "–"} | ${leaks(row)} | ${row.misbehaved}/${row.llmCalls} | ${(row.ms / 1000).toFixed(1)} |`,
    );
  }
  const failures = result.rows.flatMap((row) => row.runs.filter((r) => !r.completed).map((r) => `- ${row.mode ?? "none"}, ${r.engine}: ${r.status}${r.error ? ` — ${r.error.split("\n")[0].slice(0, 300)}` : ""}`));
  const leaked = result.rows.flatMap((row) => [...row.runs.flatMap((r) => r.leaks.map((l) => `${r.engine} ${l}`)), ...row.storedLeaks.map((l) => `stored ${l}`)].map((l) => `- ${row.mode ?? "none"}: ${l}`));
  if (failures.length) lines.push("", "Runs that did not complete:", "", ...failures);
  if (leaked.length) lines.push("", "Reasoning found in what a user sees:", "", ...leaked);
  return `${lines.join("\n")}\n`;
}

// Child side: one request in, the rows out, then exit (the product's modules may hold handles open).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes(CHILD_FLAG)) {
  process.once("message", (req: MisbehaveRequest) => {
    runInProcess(req)
      .then((rows) => ({ rows }))
      .catch((error: unknown) => ({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }))
      .then((msg) => process.send?.(msg, () => process.exit(0)));
  });
}
