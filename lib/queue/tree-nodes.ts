// Tree node jobs on BullMQ (queue mode): the NodeQueue of lib/explore/distributed.ts. A node's job
// id is its query's, so adding a node whose job waits or runs is a no-op; failed jobs are retried
// with backoff, then reported to the coordinator, which fails the research.
import type { NodeJobState, NodeQueue } from "../explore/distributed";
import { nodeJobId, treeNodesQueue } from "./connection";
import { fairRank } from "./enqueue";

/** Attempts of a node job whose work throws (a bug or a database failure; lost LLM calls are handled inside). */
const NODE_ATTEMPTS = 3;

export const bullTreeNodes: NodeQueue = {
  async ensure(researchId, queryIds, { replaceEnded }) {
    const queue = treeNodesQueue();
    const states = new Map<string, NodeJobState>();
    let priority: number | undefined;
    for (const queryId of queryIds) {
      const jobId = nodeJobId(queryId);
      const job = await queue.getJob(jobId);
      if (job) {
        const state = await job.getState();
        if (state !== "completed" && state !== "failed" && state !== "unknown") {
          states.set(queryId, "running");
          continue;
        }
        if (!replaceEnded && state !== "unknown") {
          states.set(queryId, state === "completed" ? "completed" : { failed: job.failedReason || "A query node's job failed" });
          continue;
        }
        await job.remove().catch(() => {});
      }
      // The research's user's rank, like its run's: one user's big tree does not starve another's question.
      priority ??= await fairRank("tree", researchId);
      await queue.add("node", { researchId, queryId }, {
        jobId,
        priority,
        attempts: NODE_ATTEMPTS,
        backoff: { type: "exponential", delay: 2_000 },
        // By age only: the coordinator reads a node's ended job while its research runs.
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      });
      states.set(queryId, "running");
    }
    return states;
  },

  async running(queryIds) {
    const queue = treeNodesQueue();
    let n = 0;
    for (const queryId of queryIds) {
      const state = await (await queue.getJob(nodeJobId(queryId)))?.getState();
      if (state && state !== "completed" && state !== "failed" && state !== "unknown") n++;
    }
    return n;
  },
};
