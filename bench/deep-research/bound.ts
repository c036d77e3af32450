// The critical-path bound of a Deep Research run, per iteration: the LLM steps in sequence (plan when
// it called the planner, hypothesis, max(reflection, discovery) = one step, next steps, continue when
// it called the agent, reply), plus the slowest task — a literature task's tree (its own critical
// path from bench/tree/bound.ts, or the level's combined LLM throughput if larger) and its summary.
import { computeBound, type BoundLatencies, type BoundLimits, type BoundQuery } from "../tree/bound";

export interface IterationShape {
  iteration: number;
  /** Sequential LLM steps outside the tasks (see above). */
  sequentialLlmSteps: number;
  /**
   * Each task's tree (empty for a skipped task), whether a summary call followed, and how long the task
   * took as stored on it (its start to its end: the tree, the summary and their writes).
   */
  tasks: { queries: BoundQuery[]; llmCalls: number; pagesFetched: number; summarised: boolean; measuredMs: number }[];
}

/**
 * The loop's own bound: the same path through the iteration, with the slowest task taken at the time it
 * really took. Wall time over it is what the Deep Research loop adds around its tasks (planning, the
 * writes between phases, starting the tasks, waiting for them); how close a task's tree comes to its own
 * bound is the tree runner's figure (the tree rows, and `iterationBoundMs` below).
 */
export function iterationLoopBoundMs(it: IterationShape, latencies: BoundLatencies): number {
  return it.sequentialLlmSteps * latencies.llmMs + Math.max(0, ...it.tasks.map((t) => t.measuredMs));
}

export function iterationBoundMs(it: IterationShape, latencies: BoundLatencies, limits: BoundLimits): number {
  let slowest = 0;
  for (const t of it.tasks) {
    const tree = computeBound({ latencies, limits, queries: t.queries, llmCalls: t.llmCalls, pagesFetched: t.pagesFetched, reportSteps: 0 });
    slowest = Math.max(slowest, tree.criticalPathMs + (t.summarised ? latencies.llmMs : 0));
  }
  // The level's trees share the LLM limit: all their calls cannot finish sooner than this.
  const levelCalls = it.tasks.reduce((n, t) => n + t.llmCalls + (t.summarised ? 1 : 0), 0);
  const throughput = (levelCalls * latencies.llmMs) / limits.llmConcurrency;
  return it.sequentialLlmSteps * latencies.llmMs + Math.max(slowest, throughput);
}
