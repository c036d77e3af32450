// Where a tree run's time goes between the fixed latencies: the "hops" of a BENCH_TIMELINE_DIR file
// (bench/tree/run-tree.ts). Each is measured from the fakes' request log, so it is what the provider
// side saw: the time from one step's answer to the next step's request, which the bound counts as zero.
//   planning → search: a planning call's answer (its start + the LLM latency) to each child's search
//   search → first analysis: a query's search to its first page analysis, less the search and page latencies
//   last analysis → planning: a query's last page analysis's answer to the planning of its children
//   the tail: the last analysis's answer to the report, the report's to the verification, its to the end
//   npx tsx bench/tree/hops.ts FILE.json … [--llm-latency 150 --search-latency 80 --web-latency 60]
// The fake LLM names a child query after its parent's (`… aspect 2` → `… aspect 2.1`), which links them.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { quantile } from "../extraction-measure";
import type { Timeline } from "./run-tree";

/** What the hops read of a timeline. */
type TimelineCalls = Pick<Timeline, "t0" | "wallMs" | "search"> & { llm: Pick<Timeline["llm"][number], "at" | "agent" | "q">[] };

export interface Spread {
  n: number;
  p50: number;
  p90: number;
  max: number;
}

export interface Hops {
  planningToSearch: Spread;
  /** planning → search by the child's depth (2 = the roots' children). */
  planningToSearchByDepth: Record<number, Spread>;
  searchToFirstAnalysis: Spread;
  lastAnalysisToPlanning: Spread;
  tail: { lastAnalysisToReport: number; reportToVerification: number | null; verificationToEnd: number | null };
}

const spread = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), max: quantile(sorted, 1) };
};

const parentOf = (q: string) => {
  const parent = q.replace(/\.\d+$/, "");
  return parent === q ? undefined : parent;
};

export function timelineHops(t: TimelineCalls, latencies: { llmMs: number; searchMs: number; webMs: number }): Hops {
  const planning = new Map<string, number>();
  const analyses = new Map<string, number[]>();
  for (const e of t.llm) {
    if (!e.q) continue;
    if (e.agent === "query-generator") planning.set(e.q, e.at);
    // A query's analyses: the page reads it took part in, and its selection from pages read before.
    if (e.agent === "website-analyzer" || e.agent === "item-selector") {
      const ats = analyses.get(e.q);
      if (ats) ats.push(e.at);
      else analyses.set(e.q, [e.at]);
    }
  }
  const toSearch: number[] = [];
  const byDepth: Record<number, number[]> = {};
  const toFirst: number[] = [];
  for (const s of t.search) {
    const parent = parentOf(s.q);
    const planned = parent === undefined ? undefined : planning.get(parent);
    if (planned !== undefined) {
      const hop = s.at - planned - latencies.llmMs;
      toSearch.push(hop);
      (byDepth[s.q.split(".").length] ??= []).push(hop);
    }
    const mine = analyses.get(s.q);
    if (mine) toFirst.push(Math.min(...mine) - s.at - latencies.searchMs - latencies.webMs);
  }
  const toPlanning: number[] = [];
  for (const [q, ats] of analyses) {
    const planned = planning.get(q);
    if (planned !== undefined) toPlanning.push(planned - Math.max(...ats) - latencies.llmMs);
  }
  /** When an agent's first and last calls started. */
  const callsOf = (agent: string) => {
    const ats = t.llm.filter((e) => e.agent === agent).map((e) => e.at);
    return ats.length ? { first: Math.min(...ats), last: Math.max(...ats) } : undefined;
  };
  const lastAnalysis = Math.max(callsOf("website-analyzer")?.last ?? t.t0, callsOf("item-selector")?.last ?? t.t0);
  const report = callsOf("report-writer");
  const verification = callsOf("citation-verifier");
  return {
    planningToSearch: spread(toSearch),
    planningToSearchByDepth: Object.fromEntries(Object.entries(byDepth).map(([d, v]) => [Number(d), spread(v)])),
    searchToFirstAnalysis: spread(toFirst),
    lastAnalysisToPlanning: spread(toPlanning),
    tail: {
      lastAnalysisToReport: (report?.first ?? NaN) - lastAnalysis - latencies.llmMs,
      reportToVerification: report && verification ? verification.first - report.first - latencies.llmMs : null,
      verificationToEnd: verification ? t.t0 + t.wallMs - verification.last - latencies.llmMs : null,
    },
  };
}

const show = (s: Spread) => `n ${s.n}, p50 ${s.p50.toFixed(0)}, p90 ${s.p90.toFixed(0)}, max ${s.max.toFixed(0)} ms`;

export function formatHops(name: string, h: Hops): string {
  const lines = [
    `${name}`,
    `  planning → search: ${show(h.planningToSearch)}`,
    ...Object.entries(h.planningToSearchByDepth).map(([d, s]) => `    depth ${d}: ${show(s)}`),
    `  search → first analysis (less the search and page latencies): ${show(h.searchToFirstAnalysis)}`,
    `  last analysis → planning: ${show(h.lastAnalysisToPlanning)}`,
    `  last analysis → report ${h.tail.lastAnalysisToReport.toFixed(0)} ms, report → verification ${h.tail.reportToVerification?.toFixed(0) ?? "–"} ms, verification → end ${h.tail.verificationToEnd?.toFixed(0) ?? "–"} ms`,
  ];
  return lines.join("\n");
}

if (process.argv[1] && /hops\.ts$/.test(process.argv[1])) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "llm-latency": { type: "string", default: "150" }, "search-latency": { type: "string", default: "80" }, "web-latency": { type: "string", default: "60" } },
  });
  const latencies = { llmMs: Number(values["llm-latency"]), searchMs: Number(values["search-latency"]), webMs: Number(values["web-latency"]) };
  for (const file of positionals) console.log(formatHops(file, timelineHops(JSON.parse(fs.readFileSync(file, "utf8")) as Timeline, latencies)));
}
