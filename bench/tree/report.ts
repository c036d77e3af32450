// The benchmark's Markdown: one table per figure the issue asks for, targets marked.
import type { BoundLatencies, BoundLimits } from "./bound";
import type { TreeRunResult } from "./run-tree";

/** The targets, checked at depth 5 × breadth 5. */
export const TARGETS = { at: "5x5", maxRatio: 1.15, maxPeakRssMb: 400, maxCpuShare: 0.1 } as const;

export interface BenchSummary {
  smoke: boolean;
  startedAt: string;
  environment: { node: string; cpus: number; memoryGb: number };
  latencies: BoundLatencies;
  limits: BoundLimits;
  contextTokenBudget: number;
  failingPageShare: number;
  tree: TreeRunResult[];
  /** Fault runs: one research through the fault-injecting LLM proxy. */
  faults?: TreeRunResult[];
  extractionMarkdown?: string;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");
const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;

function targetMarks(r: TreeRunResult): { ratio: string; rss: string; cpu: string } {
  if (`${r.depth}x${r.breadth}` !== TARGETS.at) return { ratio: "", rss: "", cpu: "" };
  return {
    ratio: ` ${mark(r.ratio <= TARGETS.maxRatio)}`,
    rss: ` ${mark(r.server.peakRssMb < TARGETS.maxPeakRssMb)}`,
    cpu: ` ${mark(r.server.cpuShareOfWall < TARGETS.maxCpuShare)}`,
  };
}

export function formatBenchMarkdown(b: BenchSummary): string {
  const out: string[] = [];
  out.push(`# Quarry benchmark${b.smoke ? " (smoke)" : ""}`, "");
  out.push(
    `${b.startedAt} · Node ${b.environment.node} · ${b.environment.cpus} cores · ${b.environment.memoryGb} GB. ` +
      `Latencies: LLM ${b.latencies.llmMs} ms, search ${b.latencies.searchMs} ms, page ${b.latencies.webMs} ms. ` +
      `Limits: LLM ${b.limits.llmConcurrency}, search ${b.limits.searchConcurrency}, fetch ${b.limits.fetchConcurrency}, ` +
      `analyses per query ${b.limits.analyzeConcurrencyPerQuery}. Context budget ${b.contextTokenBudget} tokens. ` +
      `Failing-page share ${b.failingPageShare}.`,
    "",
  );

  if (b.tree.length > 0) {
    out.push("## 1. Wall time vs the critical-path bound", "");
    out.push(`Target at ${TARGETS.at}: wall/bound ≤ ${TARGETS.maxRatio}.`, "");
    out.push(row(["depth × breadth", "queries", "wall", "critical path", "LLM work / limit", "bound (limited by)", "wall / bound", "LLM slots busy"]));
    out.push(row(["---", "---:", "---:", "---:", "---:", "---", "---:", "---:"]));
    for (const r of b.tree) {
      out.push(
        row([
          `${r.depth} × ${r.breadth}`,
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
    for (const r of b.tree) out.push(`- ${r.depth} × ${r.breadth}: ${r.llmSlots.perHalfSecond.join(" ")}`);
    out.push("", "## 2. Server cost per run", "");
    out.push(`Targets at ${TARGETS.at}: peak RSS < ${TARGETS.maxPeakRssMb} MB, CPU < ${TARGETS.maxCpuShare * 100}% of wall time.`, "");
    out.push(row(["depth × breadth", "CPU", "CPU / wall", "peak RSS", "DB rows written", "LLM calls", "prompt tokens", "completion tokens", "pages fetched (distinct)"]));
    out.push(row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]));
    for (const r of b.tree) {
      const t = targetMarks(r);
      out.push(
        row([
          `${r.depth} × ${r.breadth}`,
          `${r.server.cpuSeconds.toFixed(2)} s`,
          `${(r.server.cpuShareOfWall * 100).toFixed(1)}%${t.cpu}`,
          `${r.server.peakRssMb.toFixed(0)} MB${t.rss}`,
          `${r.rows.total} (${r.rows.serpQueries} queries, ${r.rows.pages} pages, ${r.rows.queryPages} query-pages, ${r.rows.extractedItems} items)`,
          r.llm.calls,
          r.llm.promptTokens.toLocaleString("en-US"),
          r.llm.completionTokens.toLocaleString("en-US"),
          `${r.pages.fetched} (${r.pages.distinctUrls})`,
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
      out.push(`**${r.depth} × ${r.breadth}**`, "");
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
    out.push(row(["depth × breadth", "parts", "median", "p95", "max"]));
    out.push(row(["---", "---:", "---:", "---:", "---:"]));
    for (const r of b.tree) {
      out.push(row([`${r.depth} × ${r.breadth}`, r.stream.parts, `${r.stream.medianMs.toFixed(1)} ms`, `${r.stream.p95Ms.toFixed(1)} ms`, `${r.stream.maxMs.toFixed(1)} ms`]));
    }
    out.push("");
  }

  if (b.faults?.length) out.push(...faultsSection(b.faults, b.tree));

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
  out.push(row(["depth × breadth", "faults", "status", "wall", "fault-free bound", "wall / bound", "fault-free wall (row 1)", "queries completed / planned", "LLM requests: 429 / 500 injected, retries", "completions charged", "tokens recorded / charged"]));
  out.push(row(["---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]));
  for (const r of faults) {
    const f = r.faults;
    if (!f) continue;
    const o = f.options;
    const clean = tree.find((t) => t.depth === r.depth && t.breadth === r.breadth);
    const recorded = r.llm.promptTokens + r.llm.completionTokens;
    const charged = f.proxy.usage.promptTokens + f.proxy.usage.completionTokens;
    out.push(
      row([
        `${r.depth} × ${r.breadth}`,
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
    out.push(`- ${r.depth} × ${r.breadth}: queries ${statuses || "none"}${f.error ? `; research error: ${f.error.replace(/\s+/g, " ").slice(0, 300)}` : ""}`);
  }
  out.push("");
  return out;
}
