// The bound of a tree research whose LLM generates at a finite speed (the llm-tps row): each call
// takes the fixed latency and then its reply's tokens at the rate. Two instants are bounded:
// - the report's first token: root generation, then per query on the longest chain its search, its
//   slowest page, its analyses in sequence (as configured) and its children's planning — each call at
//   the shortest duration of its agent's calls in the run (a lower bound: no call of it took less) —
//   then the branch summaries when there were any, then the report call's latency;
// - the report's end: its first token plus the report's own generation (its tokens at the rate),
//   then the verification's rounds that began after the report ended (the checks of its parts made
//   while it was written overlap it), each at the shortest verification call's duration.
// LLM throughput bounds both too: the calls' durations begun before, divided by the concurrency.
import { queryStepMs, type BoundLatencies, type BoundLimits, type BoundQuery } from "../tree/bound";

export interface TpsCall {
  agent: string;
  at: number;
  endedAt: number | null;
  completionTokens: number;
}

export interface TpsBoundInput {
  latencies: BoundLatencies;
  limits: BoundLimits;
  tokensPerSecond: number;
  queries: BoundQuery[];
  calls: TpsCall[];
  /** Verification rounds begun after the report ended (bench/tree/bound.ts verificationRounds). */
  verificationRounds: number;
}

export interface TpsBound {
  firstTokenMs: number;
  endMs: number;
  /** Which bound is the largest at each instant. */
  firstTokenFrom: "critical path" | "LLM throughput";
  endFrom: "critical path" | "LLM throughput";
  /** The report call's generation at the rate (its tokens ÷ tokens per second). */
  reportGenerationMs: number;
}

const VERIFY = new Set(["citation-verifier", "uncited-claim-finder"]);

export function computeTpsBound(input: TpsBoundInput): TpsBound {
  const { latencies, limits, tokensPerSecond: tps } = input;
  const durationOf = (c: TpsCall) => latencies.llmMs + (c.completionTokens / tps) * 1000;
  const shortest = (pred: (c: TpsCall) => boolean) => {
    const ds = input.calls.filter(pred).map(durationOf);
    return ds.length ? Math.min(...ds) : latencies.llmMs;
  };
  const analysisMs = shortest((c) => c.agent === "website-analyzer");
  const planningMs = shortest((c) => c.agent === "query-generator");
  const report = input.calls.find((c) => c.agent === "report-writer");
  const reportGenerationMs = report ? (report.completionTokens / tps) * 1000 : 0;
  const summaries = input.calls.some((c) => c.agent === "branch-summarizer") ? shortest((c) => c.agent === "branch-summarizer") : 0;

  // The longest chain of queries, each step with the analyses' and planning's durations at the rate.
  const children = new Map<string | null, BoundQuery[]>();
  for (const q of input.queries) children.set(q.parentId, [...(children.get(q.parentId) ?? []), q]);
  const stepMs = (q: BoundQuery) => {
    // queryStepMs with every LLM call at the latency; add each call's generation beyond it.
    const rounds = Math.ceil(q.analyses / limits.analyzeConcurrencyPerQuery);
    return queryStepMs(q, { latencies, limits }) + rounds * (analysisMs - latencies.llmMs) + (q.generatedChildren ? planningMs - latencies.llmMs : 0);
  };
  const longest = (q: BoundQuery): number => stepMs(q) + Math.max(0, ...(children.get(q.id) ?? []).map(longest));
  const chainMs = Math.max(0, ...(children.get(null) ?? []).map(longest));
  const rootMs = input.queries.length > 0 ? planningMs : 0;
  const pathToFirstToken = rootMs + chainMs + summaries + latencies.llmMs;
  const verifyMs = shortest((c) => VERIFY.has(c.agent));
  const pathToEnd = pathToFirstToken + reportGenerationMs + input.verificationRounds * verifyMs;

  // Throughput: the calls begun before the report's first token, and all of them, over the slots.
  const reportAt = report?.at ?? Infinity;
  const busy = (calls: TpsCall[]) => calls.reduce((n, c) => n + durationOf(c), 0) / limits.llmConcurrency;
  const throughputFirst = busy(input.calls.filter((c) => c.at < reportAt && c.agent !== "report-writer"));
  const throughputEnd = busy(input.calls);
  return {
    firstTokenMs: Math.max(pathToFirstToken, throughputFirst),
    endMs: Math.max(pathToEnd, throughputEnd),
    firstTokenFrom: pathToFirstToken >= throughputFirst ? "critical path" : "LLM throughput",
    endFrom: pathToEnd >= throughputEnd ? "critical path" : "LLM throughput",
    reportGenerationMs,
  };
}
