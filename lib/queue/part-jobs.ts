// Part jobs on BullMQ (queue mode): the PartJobs of lib/runs/part-jobs.ts, for a tree's query nodes
// and a Deep Research level's tasks. A part's job id is the part's, so adding a part whose job waits
// or runs is a no-op; failed jobs are retried with backoff, then reported to the coordinator.
import type { Queue } from "bullmq";
import type { RunKind } from "../db/runs";
import type { PartJobState, PartJobs } from "../runs/part-jobs";
import { drTaskJobId, drTasksQueue, nodeJobId, treeNodesQueue, type DrTaskJobData, type TreeNodeJobData } from "./connection";
import { fairRank, wakeRun } from "./enqueue";

/** Attempts of a part job whose work throws (a bug or a database failure; lost LLM calls are handled inside). */
const PART_ATTEMPTS = 3;

/** Levels told apart in a part's priority (BullMQ's priorities go up to 2^21: ranks up to 1,000 times this fit). */
const LEVELS = 16;

/**
 * How long a run's rank (fairRank) is reused for its parts' jobs: a tree's nodes hand their children
 * off many times a second, each a read of the user's live runs on the path to the children's search.
 */
const RANK_TTL_MS = 1_000;
const ranks = new Map<string, { rank: Promise<number>; at: number }>();

/** The run's user's rank, read at most once a RANK_TTL_MS per run in this process. */
function rankOf(kind: RunKind, parentId: string): Promise<number> {
  const key = `${kind}:${parentId}`;
  const now = Date.now();
  const kept = ranks.get(key);
  if (kept && now - kept.at < RANK_TTL_MS) return kept.rank;
  for (const [k, entry] of ranks) if (now - entry.at >= RANK_TTL_MS) ranks.delete(k);
  const entry = { rank: fairRank(kind, parentId), at: now };
  ranks.set(key, entry);
  // A failed read is not reused.
  entry.rank.catch(() => ranks.get(key) === entry && ranks.delete(key));
  return entry.rank;
}

const live = (state: string) => state !== "completed" && state !== "failed" && state !== "unknown";

function bullPartJobs<T extends object>({ queue, kind, jobId, data }: {
  queue: () => Queue<T>;
  /** The run's kind: a part's priority is its run's user's rank. */
  kind: RunKind;
  jobId: (partId: string) => string;
  data: (parentId: string, partId: string) => T;
}): PartJobs {
  /** The parts' jobs (if any) and their states, asked for together (a node's children are on its path to them). */
  const jobsOf = (q: Queue<T>, partIds: string[]) =>
    Promise.all(partIds.map(async (partId) => {
      const job = await q.getJob(jobId(partId));
      return { job, state: await job?.getState() };
    }));
  /**
   * The parts that need a job added: those without one, and with `replaceEnded` those whose job ended
   * (removed first). The others' states go in `states`.
   */
  const withoutJobs = async (q: Queue<T>, partIds: string[], replaceEnded: boolean, states: Map<string, PartJobState>) => {
    const missing: string[] = [];
    for (const [i, { job, state }] of (await jobsOf(q, partIds)).entries()) {
      const partId = partIds[i];
      if (job && state !== undefined) {
        if (live(state)) {
          states.set(partId, "running");
          continue;
        }
        if (!replaceEnded && state !== "unknown") {
          states.set(partId, state === "completed" ? "completed" : { failed: job.failedReason || "A part of the run failed in its job" });
          continue;
        }
        await job.remove().catch(() => {});
      }
      missing.push(partId);
    }
    return missing;
  };
  return {
    async ensure(parentId, partIds, { replaceEnded, level = 1, created = false }) {
      const q = queue();
      const states = new Map<string, PartJobState>();
      // New parts have no jobs to look up (two lookups each): BullMQ's add leaves an existing job id alone.
      const missing = created && !replaceEnded ? partIds : await withoutJobs(q, partIds, replaceEnded, states);
      if (missing.length === 0) return states;
      // The run's user's rank, like its run's: one user's big run does not starve another's question.
      // Within a rank, deeper parts first: a user's earlier runs end first, not all of them last together.
      const priority = (await rankOf(kind, parentId) - 1) * LEVELS + LEVELS - Math.min(Math.max(level, 1), LEVELS - 1);
      // BullMQ's add is typed by the queue's name and data types, which a generic T cannot name. One
      // round trip for them all; a part whose job exists (added meanwhile by another) is left alone.
      await (q as unknown as Queue<object>).addBulk(missing.map((partId) => ({
        name: "part",
        data: data(parentId, partId),
        opts: {
          jobId: jobId(partId),
          priority,
          attempts: PART_ATTEMPTS,
          backoff: { type: "exponential", delay: 2_000 },
          // By age only: the coordinator reads a part's ended job while its run runs.
          removeOnComplete: { age: 24 * 3600 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      })));
      for (const partId of missing) states.set(partId, "running");
      return states;
    },

    wakeParent: (parentId) => wakeRun(kind, parentId),

    async running(partIds) {
      return (await jobsOf(queue(), partIds)).filter(({ state }) => state !== undefined && live(state)).length;
    },
  };
}

/** A tree's query nodes (lib/explore/distributed.ts). */
export const bullTreeNodes = bullPartJobs<TreeNodeJobData>({
  queue: treeNodesQueue,
  kind: "tree",
  jobId: nodeJobId,
  data: (researchId, queryId) => ({ researchId, queryId }),
});

/** A Deep Research level's tasks (lib/deep-research/distributed.ts). */
export const bullDrTasks = bullPartJobs<DrTaskJobData>({
  queue: drTasksQueue,
  kind: "deep-research",
  jobId: drTaskJobId,
  data: (conversationId, taskId) => ({ conversationId, taskId }),
});
