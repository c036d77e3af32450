// The Deep Research row of `npm run bench`: a 3-iteration semi-autonomous run (two LITERATURE tasks
// per level) against its critical-path bound (bound.ts), with LLM calls and tokens per iteration; and
// a long fully-autonomous run whose per-iteration prompt tokens must stay flat (CONTEXT_TOKEN_BUDGET).
import { boundQueriesOf } from "../tree/run-tree";
import type { LlmLogEntry } from "../../test/fakes";
import { TestApp } from "../../test/helpers/app-server";
import type { BoundLatencies, BoundLimits } from "../tree/bound";
import type { FakesProcess } from "../tree/fakes-process";
import { iterationBoundMs, iterationLoopBoundMs, type IterationShape } from "./bound";

export interface DrIteration {
  iteration: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens of the Deep Research agents alone (the trees' calls do not grow with the conversation). */
  agentPromptTokens: number;
  boundMs: number;
  /** The same path with the slowest task at its measured time (iterationLoopBoundMs). */
  loopBoundMs: number;
  wallMs: number;
}

export interface DrBenchResult {
  iterations: number;
  wallMs: number;
  boundMs: number;
  ratio: number;
  loopBoundMs: number;
  /** Wall time over the loop's bound: what the loop adds around its tasks. Target ≤ 1.15. */
  loopRatio: number;
  perIteration: DrIteration[];
  flat: { iterations: number; agentPromptTokens: number[]; lastToThird: number };
}

export interface DrBenchOptions {
  latencies: BoundLatencies;
  limits: BoundLimits;
  contextTokenBudget: number;
  fakes: FakesProcess;
  /** Tree of each literature task, and the long run's length. */
  tree: { depth: number; breadth: number };
  /** Page analyses a literature tree's query runs at once (LITERATURE_ANALYZE_CONCURRENCY). */
  literatureAnalyzeConcurrency: number;
  flatIterations: number;
}

async function waitDone(app: TestApp, pollUrl: string, timeoutMs = 900_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const s = (await (await app.fetch(pollUrl)).json()) as { status: string; error?: string };
    if (s.status === "completed") return performance.timeOrigin + performance.now();
    if (s.status === "failed") throw new Error(`the Deep Research run failed: ${s.error}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the Deep Research run did not finish in time");
}

async function start(app: TestApp, body: Record<string, unknown>): Promise<{ conversationId: string; pollUrl: string }> {
  const res = await app.postJson("/api/deep-research/start", body);
  if (res.status !== 200) throw new Error(`start: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as { conversationId: string; pollUrl: string };
}

/** The LLM log split at each iteration's reply (its end). */
async function windows(app: TestApp, conversationId: string, log: LlmLogEntry[]): Promise<LlmLogEntry[][]> {
  const replies = await app.db.conversationMessage.findMany({ where: { conversationId, role: "assistant" }, orderBy: { iteration: "asc" } });
  let from = 0;
  return replies.map((r) => {
    const end = r.createdAt.getTime();
    const inside = log.filter((e) => e.at > from && e.at <= end);
    from = end;
    return inside;
  });
}

const isAgent = (e: LlmLogEntry) => e.agent.startsWith("dr-") && e.agent !== "dr-literature";

async function shapeOf(app: TestApp, conversationId: string, iteration: number, calls: LlmLogEntry[]): Promise<IterationShape> {
  const count = (agent: string) => calls.filter((e) => e.agent === agent).length;
  const tasks = await app.db.researchTask.findMany({ where: { conversationId, level: iteration } });
  const shapes: IterationShape["tasks"] = [];
  for (const t of tasks) {
    const measuredMs = t.startedAt && t.endedAt ? t.endedAt.getTime() - t.startedAt.getTime() : 0;
    if (!t.childResearchId) {
      shapes.push({ queries: [], llmCalls: 0, pagesFetched: 0, summarised: false, measuredMs });
      continue;
    }
    const research = await app.db.research.findUniqueOrThrow({ where: { id: t.childResearchId } });
    const queries = await app.db.serpQuery.findMany({
      where: { researchId: research.id },
      include: { queryPages: { include: { page: { select: { status: true } } } }, children: { select: { id: true } } },
    });
    const pages = await app.db.page.count({ where: { researchId: research.id, status: { in: ["scraped", "failed"] } } });
    shapes.push({
      queries: boundQueriesOf(queries, calls),
      llmCalls: research.llmCalls,
      pagesFetched: pages,
      summarised: JSON.parse(t.artifacts).itemCount > 0,
      measuredMs,
    });
  }
  const reflectOrDiscover = count("dr-reflection") + count("dr-discovery") > 0 ? 1 : 0;
  return { iteration, sequentialLlmSteps: count("dr-planner") + count("dr-hypothesis") + reflectOrDiscover + count("dr-continue") + count("dr-reply"), tasks: shapes };
}

export async function runDeepResearchBench(o: DrBenchOptions): Promise<DrBenchResult> {
  const app = await TestApp.start({
    name: "bench-deep-research",
    env: {
      ...o.fakes.env,
      LLM_CONCURRENCY: String(o.limits.llmConcurrency),
      SEARCH_CONCURRENCY: String(o.limits.searchConcurrency),
      SCRAPE_CONCURRENCY: String(o.limits.fetchConcurrency),
      ANALYZE_CONCURRENCY_PER_QUERY: String(o.limits.analyzeConcurrencyPerQuery),
      LITERATURE_ANALYZE_CONCURRENCY: String(o.literatureAnalyzeConcurrency),
      CONTEXT_TOKEN_BUDGET: String(o.contextTokenBudget),
      LITERATURE_TREE_DEPTH: String(o.tree.depth),
      LITERATURE_TREE_BREADTH: String(o.tree.breadth),
      MAX_AUTO_ITERATIONS: "3",
      MAX_TASKS_PER_ITERATION: "2",
      RESUME_ON_START: "0",
    },
  });
  // The literature trees' queries analyse their pages with their own concurrency.
  const treeLimits: BoundLimits = { ...o.limits, analyzeConcurrencyPerQuery: o.literatureAnalyzeConcurrency };
  try {
    // Warm-up: loads the routes and the engine.
    await waitDone(app, (await start(app, { message: "Warm-up #done-at-1", researchMode: "steering" })).pollUrl);
    await o.fakes.resetLogs();

    const t0 = performance.timeOrigin + performance.now();
    const run = await start(app, { message: "How do grid-scale batteries earn money? #tasks-2" });
    const wallMs = (await waitDone(app, run.pollUrl)) - t0;
    const split = await windows(app, run.conversationId, await o.fakes.llmLog());
    const perIteration: DrIteration[] = [];
    const replyTimes = (await app.db.conversationMessage.findMany({ where: { conversationId: run.conversationId, role: "assistant" }, orderBy: { iteration: "asc" } }))
      .map((m) => m.createdAt.getTime());
    for (const [i, calls] of split.entries()) {
      const shape = await shapeOf(app, run.conversationId, i + 1, calls);
      const boundMs = iterationBoundMs(shape, o.latencies, treeLimits);
      perIteration.push({
        iteration: i + 1,
        llmCalls: calls.length,
        promptTokens: calls.reduce((n, e) => n + e.promptTokens, 0),
        completionTokens: calls.reduce((n, e) => n + e.completionTokens, 0),
        agentPromptTokens: calls.filter(isAgent).reduce((n, e) => n + e.promptTokens, 0),
        boundMs,
        loopBoundMs: iterationLoopBoundMs(shape, o.latencies),
        // From the previous iteration's reply (or the start) to this one's.
        wallMs: replyTimes[i] - (i === 0 ? t0 : replyTimes[i - 1]),
      });
    }
    const boundMs = perIteration.reduce((n, it) => n + it.boundMs, 0);
    const loopBoundMs = perIteration.reduce((n, it) => n + it.loopBoundMs, 0);

    // The long run: small trees, as many iterations as asked; only the agents' prompts matter here.
    await o.fakes.resetLogs();
    const long = await start(app, { message: `Long-run coherence #tasks-2 #stop-at-${o.flatIterations}`, researchMode: "fully-autonomous" });
    await waitDone(app, long.pollUrl);
    const longSplit = await windows(app, long.conversationId, await o.fakes.llmLog());
    const agentPromptTokens = longSplit.map((calls) => calls.filter(isAgent).reduce((n, e) => n + e.promptTokens, 0));
    const third = agentPromptTokens[Math.min(2, agentPromptTokens.length - 1)] || 1;
    return {
      iterations: perIteration.length,
      wallMs,
      boundMs,
      ratio: wallMs / boundMs,
      loopBoundMs,
      loopRatio: wallMs / loopBoundMs,
      perIteration,
      flat: { iterations: agentPromptTokens.length, agentPromptTokens, lastToThird: (agentPromptTokens.at(-1) ?? 0) / third },
    };
  } finally {
    await app.stop();
  }
}

export function formatDeepResearchMarkdown(r: DrBenchResult): string {
  const lines = [
    "## Deep Research",
    "",
    `A ${r.iterations}-iteration semi-autonomous run, two LITERATURE tasks per level: **${(r.wallMs / 1000).toFixed(2)} s** wall. ` +
      `Against the critical path with each level's slowest task at its measured time (${(r.loopBoundMs / 1000).toFixed(2)} s): ratio **${r.loopRatio.toFixed(3)}** ` +
      `(target ≤ 1.15: what the loop adds around its tasks). Against the critical path with each task at its tree's own computed bound ` +
      `(${(r.boundMs / 1000).toFixed(2)} s): ratio ${r.ratio.toFixed(3)} (this includes how far the literature trees are from their bound; see the tree rows).`,
    "",
    "| iteration | wall (s) | loop bound (s) | computed bound (s) | LLM calls | prompt tokens | completion tokens | agents' prompt tokens |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...r.perIteration.map((it) =>
      `| ${it.iteration} | ${(it.wallMs / 1000).toFixed(2)} | ${(it.loopBoundMs / 1000).toFixed(2)} | ${(it.boundMs / 1000).toFixed(2)} | ${it.llmCalls} | ${it.promptTokens} | ${it.completionTokens} | ${it.agentPromptTokens} |`),
    "",
    `Long fully-autonomous run (${r.flat.iterations} iterations): the agents' prompt tokens per iteration ${r.flat.agentPromptTokens.join(", ")}; ` +
      `last / third = **${r.flat.lastToThird.toFixed(2)}** (target ≤ 1.5).`,
    "",
  ];
  return lines.join("\n");
}
