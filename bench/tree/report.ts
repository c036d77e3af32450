// The benchmark's Markdown: one table per figure the issue asks for, targets marked.
import type { BoundLatencies, BoundLimits } from "./bound";
import { databaseOf, type BenchDatabase } from "./database";
import type { TreeRunResult } from "./run-tree";
import type { MachineCalibration } from "../machine";

/** The targets, checked at depth 5 × breadth 5; wall ÷ bound also at every size (issue 25: ≤ 1.25 in the parallel configuration). */
export const TARGETS = { at: "5x5", maxRatio: 1.15, maxRatioEverySize: 1.25, maxPeakRssMb: 400, maxCpuShare: 0.1 } as const;

/** A run's peak memory: the server's processes' PSS; a result recorded before it was measured, their summed RSS. */
const memoryMb = (r: TreeRunResult) => r.server.peakPssMb ?? r.server.peakRssMb;

export interface BenchSummary {
  smoke: boolean;
  /** The databases the rows ran on (--database); absent in results before the option: SQLite. */
  databases?: readonly BenchDatabase[];
  startedAt: string;
  /** machine: since 2026-12-02 (bench/machine.ts). */
  environment: { node: string; cpus: number; memoryGb: number; machine?: MachineCalibration };
  latencies: BoundLatencies;
  limits: BoundLimits;
  contextTokenBudget: number;
  failingPageShare: number;
  tree: TreeRunResult[];
  /** Fault runs: one research through the fault-injecting LLM proxy. */
  faults?: TreeRunResult[];
  /** Tree runs on the large fixture web (--web-pages): event-loop delay, stream latency, memory, CPU per call, status size. */
  largeWeb?: TreeRunResult[];
  /** The machine's 1-minute load average when each large-web row started (other engineers share it). */
  largeWebLoad?: number[];
  extractionMarkdown?: string;
}

/** Issue 25's targets for a (5, 5) on the large fixture web. */
export const LARGE_WEB_TARGETS = { loopP99Ms: 50, streamP95Ms: 50, peakRssMb: 400, cpuMsPerLlmCall: 2.5, statusKb: 50 } as const;

/** The large-web section: the server under hundreds of distinct, heavy pages. */
export function formatLargeWebMarkdown(rows: TreeRunResult[], loads: number[] = []): string {
  const t = LARGE_WEB_TARGETS;
  const out: string[] = ["## Large fixture web: the event loop under hundreds of distinct pages", ""];
  out.push(
    "One research on the large fixture web (`test/fakes/web-large.ts`: generated pages of real-world sizes, one in 40 " +
      "over 1 MB, one in 50 slow), page extraction in the server's worker pool (`SCRAPE_WORKERS`). Event-loop delay: " +
      "`perf_hooks.monitorEventLoopDelay` in the server (10 ms resolution) from the start request to the stream's end. " +
      `Targets (at 5 × 5): loop delay p99 < ${t.loopP99Ms} ms, stream p95 < ${t.streamP95Ms} ms, peak memory (PSS) < ${t.peakRssMb} MB, ` +
      `CPU ≤ ${t.cpuMsPerLlmCall} ms per LLM call, status (\`?view=status\`) < ${t.statusKb} KB.`,
    "",
  );
  out.push(row(["depth × breadth", "database", "load avg", "web pages", "distinct read (> 1 MB, slow)", "HTML read", "status", "wall", "loop delay p50 / p99 / max", "stream p50 / p95", "peak memory (PSS)", "CPU", "CPU per LLM call", "GET full / ?view=status"]));
  out.push(row(["---", "---", "---:", "---:", "---:", "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]));
  rows.forEach((r, i) => {
    const at = `${r.depth}x${r.breadth}` === TARGETS.at;
    const m = (ok: boolean) => (at ? ` ${mark(ok)}` : "");
    const ld = r.loopDelay;
    const w = r.web;
    out.push(
      row([
        `${r.depth} × ${r.breadth}`,
        db(r),
        loads[i] === undefined ? "n/a" : loads[i].toFixed(1),
        w ? w.pages : "n/a",
        w ? `${w.distinctFetched} (${w.over1Mb}, ${w.slow})` : "n/a",
        w ? `${(w.bytesFetched / 1024 / 1024).toFixed(1)} MB` : "n/a",
        r.status,
        s(r.wallMs),
        ld ? `${ld.p50Ms} / ${ld.p99Ms}${m(ld.p99Ms < t.loopP99Ms)} / ${ld.maxMs} ms` : "n/a",
        `${r.stream.medianMs.toFixed(1)} / ${r.stream.p95Ms.toFixed(1)} ms${m(r.stream.p95Ms < t.streamP95Ms)}`,
        `${memoryMb(r).toFixed(0)} MB${m(memoryMb(r) < t.peakRssMb)}`,
        `${r.server.cpuSeconds.toFixed(2)} s`,
        r.cpuMsPerLlmCall === undefined ? "n/a" : `${r.cpuMsPerLlmCall.toFixed(1)} ms${m(r.cpuMsPerLlmCall <= t.cpuMsPerLlmCall)}`,
        `${r.statusBytes === undefined ? "n/a" : `${(r.statusBytes / 1024).toFixed(1)} KB`} / ${r.statusLeanBytes === undefined ? "n/a" : `${(r.statusLeanBytes / 1024).toFixed(1)} KB${m(r.statusLeanBytes < t.statusKb * 1024)}`}`,
      ]),
    );
  });
  out.push("");
  return out.join("\n");
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");
const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
const DATABASE_NAMES: Record<BenchDatabase, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };
/** The database column of every row. */
const db = (r: TreeRunResult) => DATABASE_NAMES[databaseOf(r)];
const statementsCell = (r: TreeRunResult) => (r.statements ? `${r.statements.total} (${r.statements.writes} writes)` : "n/a");

function targetMarks(r: TreeRunResult): { ratio: string; rss: string; cpu: string } {
  if (`${r.depth}x${r.breadth}` !== TARGETS.at) return { ratio: ` ${mark(r.ratio <= TARGETS.maxRatioEverySize)}`, rss: "", cpu: "" };
  return {
    ratio: ` ${mark(r.ratio <= Math.min(TARGETS.maxRatio, TARGETS.maxRatioEverySize))}`,
    rss: ` ${mark(memoryMb(r) < TARGETS.maxPeakRssMb)}`,
    cpu: ` ${mark(r.server.cpuShareOfWall < TARGETS.maxCpuShare)}`,
  };
}

export function formatBenchMarkdown(b: BenchSummary): string {
  const out: string[] = [];
  out.push(`# Quarry benchmark${b.smoke ? " (smoke)" : ""}`, "");
  out.push(
    `${b.startedAt} · Node ${b.environment.node} · ${b.environment.cpus} cores · ${b.environment.memoryGb} GB` +
      (b.environment.machine ? ` · a loopback round trip ${b.environment.machine.loopbackRoundTripCpuUs} µs of CPU, the JSON loop ${b.environment.machine.jsonLoopMs} ms (bench/machine.ts)` : "") +
      ". " +
      `Latencies: LLM ${b.latencies.llmMs} ms, search ${b.latencies.searchMs} ms, page ${b.latencies.webMs} ms. ` +
      `Limits: LLM ${b.limits.llmConcurrency}, search ${b.limits.searchConcurrency}, fetch ${b.limits.fetchConcurrency}, ` +
      `analyses per query ${b.limits.analyzeConcurrencyPerQuery}. Context budget ${b.contextTokenBudget} tokens. ` +
      `Failing-page share ${b.failingPageShare}. ` +
      `Database: ${(b.databases ?? ["sqlite"]).map((d) => DATABASE_NAMES[d]).join(" and ")}.`,
    "",
  );

  if (b.tree.length > 0) {
    out.push("## 1. Wall time vs the critical-path bound", "");
    out.push(
      `Targets: wall/bound ≤ ${TARGETS.maxRatioEverySize} at every size, ≤ ${TARGETS.maxRatio} at ${TARGETS.at}. The critical path: root ` +
        "generation, then per query on the longest chain its search, slowest page fetch, analysis rounds and child generation, " +
        "then the report and its verification's rounds (the checks, which also correct what they find unsupported, then the checks of the corrections, each after the one before).",
      "",
    );
    out.push(row(["depth × breadth", "database", "queries", "wall", "critical path", "LLM work / limit", "bound (limited by)", "wall / bound", "LLM slots busy"]));
    out.push(row(["---", "---", "---:", "---:", "---:", "---:", "---", "---:", "---:"]));
    for (const r of b.tree) {
      out.push(
        row([
          `${r.depth} × ${r.breadth}`,
          db(r),
          r.queriesByDepth.join(" + "),
          s(r.wallMs),
          s(r.bound.criticalPathMs),
          s(r.bound.llmThroughputMs),
          `${s(r.bound.boundMs)} (${r.bound.limitedBy})`,
          `${r.ratio.toFixed(3)}${targetMarks(r).ratio}`,
          `${(r.llmSlots.busyShare * 100).toFixed(1)}%`,
        ]),
      );
    }

    out.push(
      "",
      "LLM slots busy: the share of the run's LLM capacity (limit × wall time) spent in calls. Calls in flight per 500 ms:",
      "",
    );
    for (const r of b.tree) out.push(`- ${r.depth} × ${r.breadth}, ${db(r)}: ${r.llmSlots.perHalfSecond.join(" ")}`);
    out.push("", "## 2. Server cost per run", "");
    out.push(`Targets at ${TARGETS.at}: peak memory (PSS) < ${TARGETS.maxPeakRssMb} MB, CPU < ${TARGETS.maxCpuShare * 100}% of wall time.`, "");
    out.push(
      "DB rows written: the rows of the research's own tables, counted through Prisma after the run (either database). " +
        "SQL statements: every statement the server sent from the start request to the stream's end, counted in the " +
        "database drivers (better-sqlite3, pg) by a counter preloaded into the server (`bench/tree/count-statements.cjs`); " +
        "transaction control (BEGIN/COMMIT) included. n/a: recorded before it was counted.",
      "",
    );
    out.push(row(["depth × breadth", "database", "CPU", "CPU / wall", "peak memory (PSS)", "DB rows written", "SQL statements", "LLM calls", "prompt tokens", "completion tokens", "pages fetched (distinct)"]));
    out.push(row(["---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]));
    for (const r of b.tree) {
      const t = targetMarks(r);
      out.push(
        row([
          `${r.depth} × ${r.breadth}`,
          db(r),
          `${r.server.cpuSeconds.toFixed(2)} s`,
          `${(r.server.cpuShareOfWall * 100).toFixed(1)}%${t.cpu}`,
          `${memoryMb(r).toFixed(0)} MB${t.rss}`,
          `${r.rows.total} (${r.rows.serpQueries} queries, ${r.rows.pages} pages, ${r.rows.queryPages} query-pages, ${r.rows.extractedItems} items)`,
          statementsCell(r),
          r.llm.calls,
          r.llm.promptTokens.toLocaleString("en-US"),
          r.llm.completionTokens.toLocaleString("en-US"),
          `${r.pages.fetched} (${r.pages.distinctUrls})`,
        ]),
      );
    }

    out.push("", "### Cost per call, status size and planted facts", "");
    out.push(
      "CPU per LLM call: the server's CPU over the run ÷ its LLM calls. Status: the bytes of `GET /api/research/:id` " +
        "once the research finished. Planted facts: the fixture topics' fact sentences on the pages the research read, " +
        "and the share of them found (whole) in the extracted items and in the report. n/a: recorded before it was measured.",
      "",
    );
    out.push(row(["depth × breadth", "database", "CPU / LLM call", "status response", "planted facts read", "in items", "in report"]));
    out.push(row(["---", "---", "---:", "---:", "---:", "---:", "---:"]));
    for (const r of b.tree) {
      const q = r.quality;
      out.push(
        row([
          `${r.depth} × ${r.breadth}`,
          db(r),
          `${((r.server.cpuSeconds * 1000) / Math.max(1, r.llm.calls)).toFixed(2)} ms`,
          r.statusBytes === undefined ? "n/a" : `${(r.statusBytes / 1024).toFixed(1)} KB${r.statusLeanBytes === undefined ? "" : ` (?view=status: ${(r.statusLeanBytes / 1024).toFixed(1)} KB)`}`,
          q ? q.plantedFacts : "n/a",
          q ? `${(q.inItems * 100).toFixed(1)}%` : "n/a",
          q ? `${(q.inReport * 100).toFixed(1)}%` : "n/a",
        ]),
      );
    }
    out.push("", "## 3. Prompt tokens by depth", "");
    out.push(
      `Per query: every prompt token charged to the queries of that depth (page analyses and their child generation). ` +
        `Child generation: the prompt that plans a query's children from its parent chain; the chain part is kept within ` +
        `${b.contextTokenBudget} tokens by trimming the farthest ancestors first.`,
      "",
    );
    for (const r of b.tree) {
      out.push(`**${r.depth} × ${r.breadth}, ${db(r)}**`, "");
      out.push(row(["depth", "queries", "prompt tokens / query", "child-gen calls", "child-gen prompt (mean / max)", "parent chain (max)"]));
      out.push(row(["---:", "---:", "---:", "---:", "---:", "---:"]));
      for (const d of r.tokensByDepth) {
        const g = d.childGeneration;
        out.push(
          row([
            d.depth,
            d.queries,
            Math.round(d.promptTokensPerQuery).toLocaleString("en-US"),
            g ? g.calls : "–",
            g ? `${Math.round(g.meanPromptTokens).toLocaleString("en-US")} / ${g.maxPromptTokens.toLocaleString("en-US")}` : "–",
            g ? `${g.maxChainTokens.toLocaleString("en-US")} ${mark(g.maxChainTokens <= b.contextTokenBudget)}` : "–",
          ]),
        );
      }
      out.push("");
    }

    out.push("## 5. Stream latency", "");
    out.push("From the runner emitting an event to a stream client receiving it.", "");
    out.push(row(["depth × breadth", "database", "parts", "median", "p95", "max"]));
    out.push(row(["---", "---", "---:", "---:", "---:", "---:"]));
    for (const r of b.tree) {
      out.push(row([`${r.depth} × ${r.breadth}`, db(r), r.stream.parts, `${r.stream.medianMs.toFixed(1)} ms`, `${r.stream.p95Ms.toFixed(1)} ms`, `${r.stream.maxMs.toFixed(1)} ms`]));
    }
    out.push("");
    // Recorded since 2026-12-02.
    const byType = b.tree.filter((r) => r.stream.byType && Object.keys(r.stream.byType).length > 0);
    if (byType.length > 0) {
      out.push("Parts by type: " + byType.map((r) => `${r.depth} × ${r.breadth} (${db(r)}): ${Object.entries(r.stream.byType!).sort((x, y) => y[1] - x[1]).map(([t, n]) => `${t} ${n}`).join(", ")}`).join("; ") + ".", "");
    }
  }

  if (b.faults?.length) out.push(...faultsSection(b.faults, b.tree));
  out.push(...sideBySide(b.tree));

  if (b.extractionMarkdown) {
    out.push("## 4. Extraction throughput", "", b.extractionMarkdown.replace(/^#+ .*\n/, "").trim(), "");
  }
  return `${out.join("\n")}\n`;
}

/** Section 6: the research under injected 429s and 500s, against the fault-free bound. */
function faultsSection(faults: TreeRunResult[], tree: TreeRunResult[]): string[] {
  const out = ["## 6. Under LLM faults", ""];
  out.push(
    "One research through the fault-injecting proxy (seeded). Fault-free bound: the bound of row 1's run of the same " +
      "depth × breadth when the bench ran one, else the bound over the tree this run built (counting only the LLM calls " +
      "that reached the LLM). Retries: requests whose body the proxy had already seen. Tokens: what the research recorded " +
      "against the usage of the completions the proxy forwarded.",
    "",
  );
  out.push(row(["depth × breadth", "database", "faults", "status", "wall", "fault-free bound", "wall / bound", "fault-free wall (row 1)", "queries completed / planned", "LLM requests: 429 / 500 injected, retries", "completions charged", "tokens recorded / charged"]));
  out.push(row(["---", "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]));
  for (const r of faults) {
    const f = r.faults;
    if (!f) continue;
    const o = f.options;
    const clean = tree.find((t) => t.depth === r.depth && t.breadth === r.breadth && databaseOf(t) === databaseOf(r));
    const recorded = r.llm.promptTokens + r.llm.completionTokens;
    const charged = f.proxy.usage.promptTokens + f.proxy.usage.completionTokens;
    out.push(
      row([
        `${r.depth} × ${r.breadth}`,
        db(r),
        `${(o.rate429 ?? 0) * 100}% 429 (Retry-After ${o.retryAfterSeconds ?? 1} s) + ${(o.rate500 ?? 0) * 100}% 500, seed ${o.seed ?? 1}`,
        `${r.status}${f.timedOut ? " (timed out)" : ""}`,
        s(r.wallMs),
        `${s(f.faultFreeBoundMs)}${f.boundFrom === "tree built" ? " (tree built)" : ""}`,
        f.ratioToFaultFreeBound.toFixed(3),
        clean ? s(clean.wallMs) : "–",
        `${f.completedQueries} / ${f.plannedQueries} ${mark(f.completedQueries === f.plannedQueries)}`,
        `${f.proxy.requests}: ${f.proxy.injected429} / ${f.proxy.injected500}, ${f.proxy.repeats}`,
        f.proxy.usage.completions,
        `${recorded.toLocaleString("en-US")} / ${charged.toLocaleString("en-US")}`,
      ]),
    );
  }
  out.push("");
  for (const r of faults) {
    const f = r.faults;
    if (!f) continue;
    const statuses = Object.entries(f.queriesByStatus).map(([k, v]) => `${v} ${k}`).join(", ");
    out.push(`- ${r.depth} × ${r.breadth}, ${db(r)}: queries ${statuses || "none"}${f.error ? `; research error: ${f.error.replace(/\s+/g, " ").slice(0, 300)}` : ""}`);
  }
  out.push("");
  return out;
}

/**
 * Section 7 (when the tree rows ran on both databases, --database both): per depth × breadth, the
 * SQLite and the PostgreSQL figures next to each other.
 */
function sideBySide(tree: TreeRunResult[]): string[] {
  const pairs: [TreeRunResult, TreeRunResult][] = [];
  for (const r of tree) {
    if (databaseOf(r) !== "sqlite") continue;
    const pg = tree.find((t) => databaseOf(t) === "postgres" && t.depth === r.depth && t.breadth === r.breadth);
    if (pg) pairs.push([r, pg]);
  }
  if (pairs.length === 0) return [];
  const out = ["## 7. SQLite and PostgreSQL side by side", ""];
  out.push(
    "Each cell: SQLite / PostgreSQL, the same configuration run on each database in turn (PostgreSQL on the local " +
      "server of `TEST_POSTGRES_URL`, a fresh database per run). CPU and peak memory (PSS) are the server process's; the " +
      "PostgreSQL server's own work is not in them.",
    "",
  );
  const pair = (a: string, b: string) => `${a} / ${b}`;
  out.push(row(["depth × breadth", "wall / bound", "wall", "CPU", "CPU / wall", "peak memory (PSS)", "DB rows written", "SQL statements", "stream p50", "stream p95"]));
  out.push(row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]));
  for (const [a, b] of pairs) {
    out.push(
      row([
        `${a.depth} × ${a.breadth}`,
        pair(a.ratio.toFixed(3), b.ratio.toFixed(3)),
        pair(s(a.wallMs), s(b.wallMs)),
        pair(`${a.server.cpuSeconds.toFixed(2)} s`, `${b.server.cpuSeconds.toFixed(2)} s`),
        pair(`${(a.server.cpuShareOfWall * 100).toFixed(1)}%`, `${(b.server.cpuShareOfWall * 100).toFixed(1)}%`),
        pair(`${memoryMb(a).toFixed(0)} MB`, `${memoryMb(b).toFixed(0)} MB`),
        pair(String(a.rows.total), String(b.rows.total)),
        pair(a.statements ? String(a.statements.total) : "n/a", b.statements ? String(b.statements.total) : "n/a"),
        pair(`${a.stream.medianMs.toFixed(1)} ms`, `${b.stream.medianMs.toFixed(1)} ms`),
        pair(`${a.stream.p95Ms.toFixed(1)} ms`, `${b.stream.p95Ms.toFixed(1)} ms`),
      ]),
    );
  }
  out.push("");
  return out;
}
