// Queue mode's Deep Research tasks: one job per task, so that a level's tasks run on several workers
// at once. The run's job (under the Run lease) is in its execute phase: it makes sure every
// unfinished task of the level has its job and parks (its job delayed, holding no worker slot) until
// the task job that ends last wakes it; the look that finds every task ended moves the start on to
// its hypothesis. A task job (runDrTask) runs the task as the embedded loop does (lib/deep-research/
// tasks.ts: a LITERATURE task's tree goes on from what its child research holds; a task's end is a
// compare-and-set), so a retried or duplicated job never records a task twice. The run's events are
// numbered from the database by every process (lib/runs/shared-events.ts).
import { getConversation, getMessage } from "../db/conversations";
import { getTask, tasksOf, updateTask, type ResearchTask } from "../db/research-tasks";
import { getRun } from "../db/runs";
import { errorMessage } from "../errors";
import { PART_STOP_POLL_MS, partJobs, sharedStopWhen, waitForPartJobs, wakeParentIfIdle, type PartJobs } from "../runs/part-jobs";
import { sharedSeqSink } from "../runs/shared-events";
import { DrContext } from "./context";
import { runTask, TERMINAL } from "./tasks";
import { taskView } from "./views";

/** The task queue when Deep Research tasks run as jobs in this process (undefined: in the run's own process). */
export const drTaskQueue = (): PartJobs | undefined => partJobs("dr-tasks");

/**
 * The execute phase on the workers, one look: every unfinished task of the level has its job, and a
 * task whose job failed for good (after its retries) or ended without ending the task is recorded
 * failed with the reason (the others go on, as in the embedded loop). "executed" once every task has
 * ended; "parked" while some still run: the run's job waits, holding no slot, until the task job that
 * ends last wakes it (or PART_PARK_MS). Ended jobs are replaced only in a run's first job (a resumed
 * run: `replaceEnded`), not in the jobs a parked run is woken in. Throws on cancel.
 */
export async function lookAtLevelOnWorkers(ctx: DrContext, level: number, tasks: PartJobs, { replaceEnded }: { replaceEnded: boolean }): Promise<"executed" | "parked"> {
  ctx.check();
  const open = await openTasks(ctx.conversationId, level);
  if (open.length === 0) return "executed";
  const states = await tasks.ensure(ctx.conversationId, open.map((t) => t.id), { replaceEnded });
  let running = 0;
  for (const task of open) {
    const state = states.get(task.id);
    if (state === "running") {
      running++;
      continue;
    }
    // A job that stopped for a cancel is no failure of its task.
    ctx.check();
    const error = typeof state === "object" ? state.failed : "The task's job ended without finishing the task.";
    const ended = await updateTask(task.id, (t) => (TERMINAL.has(t.status) ? null : { status: "failed", error, endedAt: new Date() }));
    ctx.emit("task", taskView(ended));
  }
  return running > 0 ? "parked" : "executed";
}

/** The tasks of the conversation (of one level) that have not ended. */
async function openTasks(conversationId: string, level?: number): Promise<ResearchTask[]> {
  return (await tasksOf(conversationId, level)).filter((t) => !TERMINAL.has(t.status));
}

/** Queue mode, a cancelled start: its task jobs see the cancel within a poll; the run ends once they have stopped writing. */
export async function stopTasksOnWorkers(conversationId: string): Promise<void> {
  const tasks = drTaskQueue();
  if (tasks) await waitForPartJobs(tasks, async () => (await openTasks(conversationId)).map((t) => t.id));
}

/**
 * A task job: the task from its recorded state to its end. "skipped" when the task has ended or its
 * start no longer runs; "stopped" when the run was cancelled or ended meanwhile (the task stays
 * running and is resumed with the run). A task's own failure is recorded on it, not thrown.
 */
export async function runDrTask({ conversationId, taskId, lock }: { conversationId: string; taskId: string; lock?: AbortSignal }): Promise<"done" | "skipped" | "stopped"> {
  // Over: the run ended or was cancelled, or the user stopped the start (its message records it).
  const read = async () => {
    const [run, c] = await Promise.all([getRun({ kind: "deep-research", subjectId: conversationId }), getConversation({ id: conversationId })]);
    const root = c?.rootMessageId ? await getMessage({ id: c.rootMessageId }) : null;
    return [run, c, root] as const;
  };
  const over = ([run, c, root]: Awaited<ReturnType<typeof read>>) => !run || run.status !== "running" || run.cancelRequestedAt !== null || !c?.active || Boolean(root?.stopRequestedAt);
  const [[run, c, root], task] = await Promise.all([read(), getTask(taskId)]);
  if (!run || !c || !task || task.conversationId !== conversationId || TERMINAL.has(task.status) || over([run, c, root])) return "skipped";
  const stop = sharedStopWhen(`deep-research:${conversationId}`, async () => over(await read()), PART_STOP_POLL_MS, `the tasks of conversation ${conversationId}`);
  const sink = sharedSeqSink(run.id);
  const handle = {
    id: run.id, kind: "deep-research" as const, subjectId: conversationId, userId: run.userId, mode: run.mode,
    signal: lock ? AbortSignal.any([stop.signal, lock]) : stop.signal, leaseLost: false, phased: false, continued: false,
  };
  let ended = true;
  try {
    await runTask(new DrContext(conversationId, c.userId, handle, sink), task);
    return stop.signal.aborted ? "stopped" : "done";
  } catch (error) {
    // Its job's lock lost (lib/queue/job-lock.ts): the worker that took the job ends the part, not this one.
    if (lock?.aborted) {
      ended = false;
      throw lock.reason;
    }
    if (stop.signal.aborted) return "stopped";
    console.error(`[quarry] task ${taskId} of conversation ${conversationId}: ${errorMessage(error)}`);
    // Retried: this job has not ended yet.
    ended = false;
    throw error;
  } finally {
    stop.dispose();
    await sink.flushed();
    // The last task of the level at work wakes the parked run: its level is done, or its cancel stopped it.
    // A stopped task wakes it in any case: the run settles the stopped tasks (a woken run that finds
    // task jobs still at work waits for them).
    if (ended) await wakeParentIfIdle(drTaskQueue(), conversationId, async () => !stop.signal.aborted && (await openTasks(conversationId, task.level)).length > 0, `task ${taskId}`);
  }
}
