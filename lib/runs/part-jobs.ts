// Queue mode's parts of a run: the jobs a run's own job (the coordinator, under the Run lease) hands
// to every worker — a tree's query nodes, a Deep Research level's tasks. The coordinator makes sure
// each unfinished part has its job and waits for the parts in the database; a part's job id is the
// part's, so asking again for a part whose job waits or runs adds nothing. BullMQ implements it in
// lib/queue/part-jobs.ts; tests use in-process fakes.
import { sleep } from "../concurrency";

/** A part's job as the coordinator sees it. */
export type PartJobState = "running" | "completed" | { failed: string };

export interface PartJobs {
  /**
   * Makes sure each part has its job: a waiting or running one is left alone, a missing one is
   * added; an ended one is added again with `replaceEnded` (a resumed run), else reported as ended.
   * `level`: how deep in the run the parts are (a tree node's depth; default 1). Among one user's
   * parts the deeper go first, so that of several runs the one started first also ends first.
   * `created`: the parts were just created (a node's children), so their jobs are added without
   * looking for them first (one added meanwhile, or by a retried job, is left alone all the same);
   * each is then reported "running".
   */
  ensure(parentId: string, partIds: string[], options: { replaceEnded: boolean; level?: number; created?: boolean }): Promise<Map<string, PartJobState>>;
  /** How many of the parts' jobs are waiting or running. */
  running(partIds: string[]): Promise<number>;
  /** Wakes the parent run's parked job (a part ended and none is at work any more). */
  wakeParent?(parentId: string): Promise<void>;
}

/**
 * A part job's stop: `check` is asked every `everyMs` (one at a time) whether the run was cancelled
 * or ended, and the signal aborts when it says so. `dispose` ends the polling.
 */
function stopWhen(check: () => Promise<boolean>, everyMs: number, label: string): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    check()
      .then((yes) => {
        if (!yes) return;
        controller.abort(new Error("The run stopped"));
        clearInterval(timer);
      })
      .catch((error: unknown) => console.error(`[quarry] ${label}: stop poll failed:`, error))
      .finally(() => (polling = false));
  }, everyMs);
  return { signal: controller.signal, dispose: () => clearInterval(timer) };
}

const sharedStops = new Map<string, { stop: ReturnType<typeof stopWhen>; users: number }>();

/**
 * `stopWhen` for every part job of one run in this process (`key` names the run): one check per
 * `everyMs`, however many of its parts work here at once (a (5, 5) tree's level has 30 node jobs, each
 * of which asked the database twice a second). The check stops when the last of them disposes; a
 * part job that starts after the run was seen stopping starts a check of its own (a resumed run).
 */
export function sharedStopWhen(key: string, check: () => Promise<boolean>, everyMs: number, label: string): { signal: AbortSignal; dispose: () => void } {
  let entry = sharedStops.get(key);
  if (!entry || entry.stop.signal.aborted) {
    entry = { stop: stopWhen(check, everyMs, label), users: 0 };
    sharedStops.set(key, entry);
  }
  const mine = entry;
  mine.users++;
  let disposed = false;
  return {
    signal: mine.stop.signal,
    dispose: () => {
      if (disposed) return;
      disposed = true;
      if (--mine.users > 0) return;
      mine.stop.dispose();
      if (sharedStops.get(key) === mine) sharedStops.delete(key);
    },
  };
}

/**
 * A part job's end: wakes its parent run's parked job when no part of it is at work any more (`atWork`
 * says so): the parts are done, or the run's cancel stopped them. A failure is logged (the parked job
 * looks again after PART_PARK_MS anyway).
 */
export async function wakeParentIfIdle(jobs: PartJobs | undefined, parentId: string, atWork: () => Promise<boolean>, label: string): Promise<void> {
  try {
    if (jobs?.wakeParent && !(await atWork())) await jobs.wakeParent(parentId);
  } catch (error) {
    console.error(`[quarry] ${label} could not wake its run's job (${parentId}):`, error);
  }
}

/**
 * A cancelled coordinator's wait: until none of the parts' jobs waits or runs any more (they see the
 * cancel within a stop poll), at most PART_STOP_WAIT_MS. `partIds` is read again each time: a part's
 * job may have added parts meanwhile (a tree node plans its children).
 */
export async function waitForPartJobs(jobs: PartJobs, partIds: () => Promise<string[]>): Promise<void> {
  const deadline = Date.now() + PART_STOP_WAIT_MS;
  const running = async () => jobs.running(await partIds()).catch(() => 0);
  while (Date.now() < deadline && (await running()) > 0) await sleep(PART_WATCH_MS);
}

/** The kinds of parts a run spreads over the workers. */
export type PartKind = "tree-nodes" | "dr-tasks";

const globalForParts = globalThis as unknown as { quarryPartJobs?: Map<PartKind, PartJobs> };

/** Queue mode's workers: runs executed in this process spread their parts of `kind` over `jobs`. */
export function setPartJobs(kind: PartKind, jobs: PartJobs): void {
  (globalForParts.quarryPartJobs ??= new Map()).set(kind, jobs);
}

/** Where parts of `kind` go when they run as jobs (undefined: in the run's own process, the embedded mode). */
export const partJobs = (kind: PartKind): PartJobs | undefined => globalForParts.quarryPartJobs?.get(kind);

/** How often a coordinator looks at its run's parts and their jobs. */
export const PART_WATCH_MS = 500;
/**
 * How long a parked coordinator (queue mode: its job delayed while its parts work) waits at most before
 * it looks at its parts again, when no part wakes it (a part job that failed for good wakes nobody).
 */
export const PART_PARK_MS = 5_000;
/** How often a part's job asks whether its run was cancelled or ended. */
export const PART_STOP_POLL_MS = 500;
/** How long a cancelled coordinator waits for its parts' jobs to stop before it settles what is unfinished. */
export const PART_STOP_WAIT_MS = 15_000;
