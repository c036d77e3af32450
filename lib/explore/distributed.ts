// Queue mode's tree: one job per query node, so that several workers share one big tree. The run's
// own job (the coordinator, under the Run lease) plans the roots and makes sure every unfinished node
// has its job, then parks (its job delayed, holding no worker slot) until the last node at work wakes
// it; once the tree has no work left, that job writes the report (lib/research/engine.ts). A node job
// (runTreeNode) does one query from its last durable status — search, pages, analyses — then plans
// its children and enqueues their jobs. Every step is idempotent in the
// database (conditional updates and unique keys: lib/db/tree.ts), node job ids are the query's, and a
// page's fetch is claimed in the database, so a retried, duplicated or taken-over job never
// duplicates a query, page, link or item. Events are numbered from the database in batches, after
// their states are written (lib/runs/shared-events.ts): several processes emit for the run at once.
import type { SerpQuery } from "../db/types";
import { getEnv } from "../env";
import { limiters } from "../limits";
import { SharedSeqSink, sharedSeqSink } from "../runs/shared-events";
import { RunContext, scopeOfResearch, type TreeScope } from "./context";
import { ACTIVE, TreeRunner } from "./runner";
import * as store from "../db/tree";
import { PART_STOP_POLL_MS, partJobs, sharedStopWhen, waitForPartJobs, wakeParentIfIdle, type PartJobs } from "../runs/part-jobs";

/** Where node jobs go when tree nodes run as jobs in this process (undefined: the embedded runner). */
export const treeNodeQueue = (): PartJobs | undefined => partJobs("tree-nodes");

/**
 * The coordinator's look at the tree (a queue job): "explored" when no query of the tree has work
 * left, or every node with work left has had its job end (a branch whose children could not be
 * planned ends there, as in the embedded runner); "parked" while node jobs still work: the run's job
 * then waits, holding no worker slot, until the last node to end wakes it (runTreeNode) and it looks
 * again. `replaceEnded`: node jobs that ended in an earlier execution of a resumed run run again.
 * Throws on cancel, a lost lease, or a node job that failed for good.
 */
export async function exploreOnWorkers({ scope, sink, signal, leaseLost, nodes, replaceEnded }: {
  scope: TreeScope;
  sink: SharedSeqSink;
  signal: AbortSignal;
  leaseLost: () => boolean;
  nodes: PartJobs;
  replaceEnded: boolean;
}): Promise<"explored" | "parked"> {
  const ctx = new RunContext(scope, getEnv(), sink, signal, leaseLost, true);
  const runner = new TreeRunner(ctx);
  try {
    await runner.ensureRoots();
    signal.throwIfAborted();
    const open = await store.queriesWithWork(ctx.id, ctx.depth, ACTIVE);
    const states = [...(await nodes.ensure(ctx.id, open, { replaceEnded })).values()];
    const failed = states.find((s) => typeof s === "object");
    if (failed) throw new Error(failed.failed);
    await ctx.settled();
    return states.every((s) => s === "completed") ? "explored" : "parked";
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
 * A tree cancelled while its run's job was parked: its node jobs stop within a poll; what they leave
 * unfinished is settled as stopped, as a coordinator at work does when it is cancelled.
 */
export async function settleOnWorkers({ scope, sink, nodes }: { scope: TreeScope; sink: SharedSeqSink; nodes: PartJobs }): Promise<void> {
  const ctx = new RunContext(scope, getEnv(), sink, AbortSignal.abort(), () => false, true);
  await waitForPartJobs(nodes, () => store.queryIdsOf(ctx.id));
  await new TreeRunner(ctx).settle();
  await ctx.settled();
}

/**
 * A node job: the query's work from its last durable status, then its children handed to the queue.
 * "skipped" when the research no longer runs; "stopped" when it was cancelled or ended meanwhile
 * (the coordinator settles what is unfinished). Other failures are thrown: the job is retried.
 */
export async function runTreeNode({ researchId, queryId, nodes, lock }: { researchId: string; queryId: string; nodes: PartJobs; lock?: AbortSignal }): Promise<"done" | "skipped" | "stopped"> {
  const node = await store.loadNode(researchId, queryId);
  const chain = node?.chain ?? [];
  const query = chain.at(-1);
  const run = node?.run;
  const research = node?.research;
  if (!run || !research || !query || run.cancelRequestedAt !== null || research.status !== "running") return "skipped";
  const stop = sharedStopWhen(`tree:${researchId}`, async () => !(await store.treeGoesOn(researchId)), PART_STOP_POLL_MS, `the nodes of research ${researchId}`);
  const sink = sharedSeqSink(run.id);
  const ctx = new RunContext(scopeOfResearch(research), getEnv(), sink, lock ? AbortSignal.any([stop.signal, lock]) : stop.signal, () => false, true);
  // The run's job is parked while its nodes work: they show the research paused while the LLM provider
  // is down (their calls wait for it), and running again when it is back.
  const unwatch = ctx.watchProvider(limiters().llmHealth, { pausedNow: research.pausedAt !== null });
  // Children handed off are queries at work: the tree is not idle, and the job need not ask.
  let handedOff = false;
  const handOff = async (children: SerpQuery[]) => {
    await nodes.ensure(researchId, children.map((c) => c.id), { replaceEnded: false, level: children[0]?.depth, created: true });
    handedOff ||= children.length > 0;
  };
  let ended = true;
  let done = false;
  try {
    await new TreeRunner(ctx, handOff).runNode(chain);
    done = true;
    return "done";
  } catch (error) {
    // Its job's lock lost (lib/queue/job-lock.ts): the worker that took the job ends the part, not this one.
    if (lock?.aborted) {
      ended = false;
      throw lock.reason;
    }
    if (stop.signal.aborted) return "stopped";
    // Retried: the query still has its job.
    ended = false;
    throw error;
  } finally {
    stop.dispose();
    unwatch();
    await ctx.settled();
    await sink.flushed();
    // The last node at work wakes the parked coordinator: the tree is explored, or its cancel stopped it.
    // A node that handed off children is not the last (they wait or run: they are at work).
    if (ended && !(done && handedOff)) await wakeParentIfIdle(nodes, researchId, () => store.hasQueriesAtWork(researchId, ACTIVE), `node ${queryId}`);
  }
}
