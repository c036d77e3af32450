// The physical limit of a tree-research run, computed from the same fixed latencies and concurrency
// limits the run used, over the tree it actually built. Two kinds of lower bound:
// - the critical path: the longest chain of dependent steps — root generation, then per query on the
//   chain: search, the slowest page fetch, its page analyses in sequence (as configured), child
//   generation — then the report, then its verification's LLM rounds (verify the citations and
//   correct what failed, verify the corrections: each round waits for the one before);
// - throughput: the total work on a limited resource divided by its limit (LLM calls above all;
//   searches and page fetches too, which can only raise the bound).
// No schedule can finish sooner than the largest of them.

export interface BoundLatencies {
  llmMs: number;
  searchMs: number;
  webMs: number;
}

export interface BoundLimits {
  llmConcurrency: number;
  searchConcurrency: number;
  fetchConcurrency: number;
  analyzeConcurrencyPerQuery: number;
}

export interface BoundQuery {
  id: string;
  parentId: string | null;
  /** Pages whose fetch this query waited for (any status). */
  pages: number;
  /** Page analyses (LLM calls) the query made. */
  analyses: number;
  /** Whether a child-generation call followed the query. */
  generatedChildren: boolean;
}

export interface BoundInput {
  latencies: BoundLatencies;
  limits: BoundLimits;
  queries: BoundQuery[];
  /** Every LLM call of the run (root and child generation, analyses, report calls, repairs). */
  llmCalls: number;
  /** Distinct pages fetched (each URL once per research). */
  pagesFetched: number;
  /** Report-writing calls in sequence: 1, or 2 when branches were summarised first. */
  reportSteps: number;
  /** The report's verification: LLM rounds in sequence after the report (0 when it was not verified). */
  verificationRounds?: number;
}

export interface Bound {
  boundMs: number;
  /** Which lower bound is the largest. */
  limitedBy: "critical path" | "LLM throughput" | "search throughput" | "fetch throughput";
  criticalPathMs: number;
  llmThroughputMs: number;
  searchThroughputMs: number;
  fetchThroughputMs: number;
  /** Query ids root → leaf on the critical path. */
  criticalChain: string[];
}

/** Time one query needs at the least, from its own start until its children can start. */
export function queryStepMs(q: BoundQuery, { latencies, limits }: Pick<BoundInput, "latencies" | "limits">): number {
  const analysisRounds = Math.ceil(q.analyses / limits.analyzeConcurrencyPerQuery);
  return (
    latencies.searchMs +
    (q.pages > 0 ? latencies.webMs : 0) +
    analysisRounds * latencies.llmMs +
    (q.generatedChildren ? latencies.llmMs : 0)
  );
}

export function computeBound(input: BoundInput): Bound {
  const { latencies, limits, queries } = input;
  const children = new Map<string | null, BoundQuery[]>();
  for (const q of queries) {
    const list = children.get(q.parentId) ?? [];
    list.push(q);
    children.set(q.parentId, list);
  }

  // Longest path below each node (memoised; the tree is shallow, recursion is fine).
  const longest = new Map<string, { ms: number; chain: string[] }>();
  const walk = (q: BoundQuery): { ms: number; chain: string[] } => {
    const cached = longest.get(q.id);
    if (cached) return cached;
    let best = { ms: 0, chain: [] as string[] };
    for (const child of children.get(q.id) ?? []) {
      const below = walk(child);
      if (below.ms > best.ms) best = below;
    }
    const result = { ms: queryStepMs(q, input) + best.ms, chain: [q.id, ...best.chain] };
    longest.set(q.id, result);
    return result;
  };
  let deepest = { ms: 0, chain: [] as string[] };
  for (const root of children.get(null) ?? []) {
    const path = walk(root);
    if (path.ms > deepest.ms) deepest = path;
  }

  const rootGenerationMs = queries.length > 0 ? latencies.llmMs : 0;
  const criticalPathMs = rootGenerationMs + deepest.ms + (input.reportSteps + (input.verificationRounds ?? 0)) * latencies.llmMs;
  const llmThroughputMs = (input.llmCalls * latencies.llmMs) / limits.llmConcurrency;
  const searchThroughputMs = (queries.length * latencies.searchMs) / limits.searchConcurrency;
  const fetchThroughputMs = (input.pagesFetched * latencies.webMs) / limits.fetchConcurrency;

  const candidates = [
    ["critical path", criticalPathMs],
    ["LLM throughput", llmThroughputMs],
    ["search throughput", searchThroughputMs],
    ["fetch throughput", fetchThroughputMs],
  ] as const;
  const [limitedBy, boundMs] = candidates.reduce((a, b) => (b[1] > a[1] ? b : a));
  return { boundMs, limitedBy, criticalPathMs, llmThroughputMs, searchThroughputMs, fetchThroughputMs, criticalChain: deepest.chain };
}

/** The report verification's agents (its repair is made in the checks' own calls). */
const VERIFY_AGENTS = new Set(["citation-verifier", "uncited-claim-finder"]);

/**
 * The verification's rounds in sequence: the most of its calls (begun once the last report-writer
 * call had ended: the checks of the report's parts made while it was still being written overlap it,
 * and add nothing to the path) that ran one after another, each begun once the one before had ended (pass 1, then pass 2 on
 * the rewrites; a batch asked again for the sentences it skipped). Calls side by side are one round,
 * so this never counts more rounds than there were.
 */
export function verificationRounds(calls: { at: number; endedAt: number | null; agent: string }[]): number {
  const reports = calls.filter((c) => c.agent === "report-writer");
  if (reports.length === 0) return 0;
  const lastReport = Math.max(...reports.map((c) => c.endedAt ?? c.at));
  // The longest such chain, by its calls' ends (the earliest-ending call first: the greedy choice is optimal).
  const checks = calls.filter((c) => VERIFY_AGENTS.has(c.agent) && c.at >= lastReport).sort((a, b) => (a.endedAt ?? Infinity) - (b.endedAt ?? Infinity));
  let rounds = 0;
  let free = -Infinity;
  for (const c of checks) {
    if (c.at < free) continue;
    rounds++;
    free = c.endedAt ?? Infinity;
  }
  return rounds;
}
