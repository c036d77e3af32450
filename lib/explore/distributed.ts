// Queue mode's tree: one job per query node, so that several workers share one big tree. The run's
// own job (the coordinator, under the Run lease) plans the roots, makes sure every unfinished node
// has its job and waits until the tree has no work left; then it hands the run off, and the run's
// next job (on whichever worker is free) writes the report (lib/research/engine.ts). A node job
// (runTreeNode) does one query from its last durable status — search, pages, analyses — then plans
// its children and enqueues their jobs. Every step is idempotent in the
// database (conditional updates and unique keys: lib/db/tree.ts), node job ids are the query's, and a
// page's fetch is claimed in the database, so a retried, duplicated or taken-over job never
// duplicates a query, page, link or item. Events are numbered from the database one at a time
// (lib/runs/shared-events.ts): several processes emit for the run at once.
import { sleep } from "../concurrency";
import { getRunState } from "../db/runs";
import type { SerpQuery } from "../db/types";
import { getEnv } from "../env";
import { SharedSeqSink } from "../runs/shared-events";
import { RunContext, scopeOfResearch, type TreeScope } from "./context";
import { ACTIVE, TreeRunner } from "./runner";
import * as store from "../db/tree";
import { PART_STOP_POLL_MS, PART_WATCH_MS, partJobs, stopWhen, waitForPartJobs, type PartJobs } from "../runs/part-jobs";

/** Where node jobs go when tree nodes run as jobs in this process (undefined: the embedded runner). */
export const treeNodeQueue = (): PartJobs | undefined => partJobs("tree-nodes");

/**
 * The coordinator's exploration: resolves when no query of the tree has work left, or every node
 * with work left has had its job end (a branch whose children could not be planned ends there, as
 * in the embedded runner); true if it had nodes to wait for (false: the tree was explored already).
 * Throws on cancel, a lost lease, or a node job that failed for good.
 */
export async function exploreOnWorkers({ scope, sink, signal, leaseLost, nodes }: {
  scope: TreeScope;
  sink: SharedSeqSink;
  signal: AbortSignal;
  leaseLost: () => boolean;
  nodes: PartJobs;
}): Promise<boolean> {
  const ctx = new RunContext(scope, getEnv(), sink, signal, leaseLost, true);
  const runner = new TreeRunner(ctx);
  let waited = false;
  try {
    await runner.ensureRoots();
    // First pass: a resumed run's nodes whose jobs ended in an earlier execution run again.
    let first = true;
    for (;;) {
      signal.throwIfAborted();
      const open = await store.queriesWithWork(ctx.id, ctx.depth, ACTIVE);
      if (open.length === 0) break;
      waited = true;
      const states = [...(await nodes.ensure(ctx.id, open, { replaceEnded: first })).values()];
      first = false;
      const failed = states.find((s) => typeof s === "object");
      if (failed) throw new Error(failed.failed);
      if (states.every((s) => s === "completed")) break;
      await sleep(PART_WATCH_MS, signal);
    }
    await ctx.settled();
    return waited;
  } catch (error) {
    if (!leaseLost()) {
      // Cancelled: the node jobs see it within a poll; what they leave unfinished is settled as stopped.
      if (signal.aborted) await waitForPartJobs(nodes, () => store.queryIdsOf(ctx.id));
      await runner.settle();
    }
    throw error;
  }
}

/**
 * A node job: the query's work from its last durable status, then its children handed to the queue.
 * "skipped" when the research no longer runs; "stopped" when it was cancelled or ended meanwhile
 * (the coordinator settles what is unfinished). Other failures are thrown: the job is retried.
 */
export async function runTreeNode({ researchId, queryId, nodes }: { researchId: string; queryId: string; nodes: PartJobs }): Promise<"done" | "skipped" | "stopped"> {
  const [run, research, query] = await Promise.all([getRunState({ kind: "tree", subjectId: researchId }), store.loadResearch(researchId), store.getQuery(queryId)]);
  if (!run || !research || !query || run.cancelRequestedAt !== null || research.status !== "running") return "skipped";
  const stop = stopWhen(async () => !(await store.treeGoesOn(researchId)), PART_STOP_POLL_MS, `node ${queryId}`);
  const sink = new SharedSeqSink(run.id);
  const ctx = new RunContext(scopeOfResearch(research), getEnv(), sink, stop.signal, () => false, true);
  const handOff = async (children: SerpQuery[]) => {
    await nodes.ensure(researchId, children.map((c) => c.id), { replaceEnded: false });
  };
  try {
    await new TreeRunner(ctx, handOff).runNode(query);
    await ctx.settled();
    return "done";
  } catch (error) {
    if (stop.signal.aborted) return "stopped";
    throw error;
  } finally {
    stop.dispose();
    await sink.flushed();
  }
}
