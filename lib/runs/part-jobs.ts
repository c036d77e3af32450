// Queue mode's parts of a run: the jobs a run's own job (the coordinator, under the Run lease) hands
// to every worker — a tree's query nodes, a Deep Research level's tasks. The coordinator makes sure
// each unfinished part has its job and waits for the parts in the database; a part's job id is the
// part's, so asking again for a part whose job waits or runs adds nothing. BullMQ implements it in
// lib/queue/part-jobs.ts; tests use in-process fakes.

/** A part's job as the coordinator sees it. */
export type PartJobState = "running" | "completed" | { failed: string };

export interface PartJobs {
  /**
   * Makes sure each part has its job: a waiting or running one is left alone, a missing one is
   * added; an ended one is added again with `replaceEnded` (a resumed run), else reported as ended.
   */
  ensure(parentId: string, partIds: string[], options: { replaceEnded: boolean }): Promise<Map<string, PartJobState>>;
  /** How many of the parts' jobs are waiting or running. */
  running(partIds: string[]): Promise<number>;
}

/**
 * A part job's stop: `check` is asked every `everyMs` (one at a time) whether the run was cancelled
 * or ended, and the signal aborts when it says so. `dispose` ends the polling.
 */
export function stopWhen(check: () => Promise<boolean>, everyMs: number, label: string): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    check()
      .then((yes) => yes && controller.abort(new Error("The run stopped")))
      .catch((error: unknown) => console.error(`[quarry] ${label}: stop poll failed:`, error))
      .finally(() => (polling = false));
  }, everyMs);
  return { signal: controller.signal, dispose: () => clearInterval(timer) };
}
