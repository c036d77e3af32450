// Queue mode's Deep Research tasks: one job per task, so that a level's tasks run on several workers
// at once. The run's job (under the Run lease) is in its execute phase: it makes sure every
// unfinished task of the level has its job, waits until each has ended, and then moves the start on
// to its hypothesis. A task job (runDrTask) runs the task as the embedded loop does (lib/deep-research/
// tasks.ts: a LITERATURE task's tree goes on from what its child research holds; a task's end is a
// compare-and-set), so a retried or duplicated job never records a task twice. The run's events are
// numbered from the database by every process (lib/runs/shared-events.ts).
import { sleep } from "../concurrency";
import { getConversation } from "../db/conversations";
import { getTask, tasksOf, updateTask, type ResearchTask } from "../db/research-tasks";
import { getRun } from "../db/runs";
import { errorMessage } from "../errors";
import { PART_STOP_POLL_MS, PART_WATCH_MS, partJobs, stopWhen, waitForPartJobs, type PartJobs } from "../runs/part-jobs";
import { sharedSeqSink } from "../runs/shared-events";
import { DrContext } from "./context";
import { runTask, TERMINAL } from "./tasks";
import { taskView } from "./views";

/** The task queue when Deep Research tasks run as jobs in this process (undefined: in the run's own process). */
export const drTaskQueue = (): PartJobs | undefined => partJobs("dr-tasks");

/**
 * The execute phase on the workers: resolves when every task of the level has ended. A task whose
 * job failed for good (after its retries), or ended without ending the task, is recorded failed
 * with the reason: the others go on, as in the embedded loop. Throws on cancel or a lost lease.
 */
export async function executeLevelOnWorkers(ctx: DrContext, level: number, tasks: PartJobs): Promise<void> {
  let open: ResearchTask[] = [];
  try {
    for (let first = true; ; first = false) {
      ctx.check();
      open = (await tasksOf(ctx.conversationId, level)).filter((t) => !TERMINAL.has(t.status));
      if (open.length === 0) return;
      const states = await tasks.ensure(ctx.conversationId, open.map((t) => t.id), { replaceEnded: first });
      for (const task of open) {
        const state = states.get(task.id);
        if (state === "running") continue;
        // A job that stopped for a cancel is no failure of its task.
        ctx.check();
        const error = typeof state === "object" ? state.failed : "The task's job ended without finishing the task.";
        const ended = await updateTask(task.id, (t) => (TERMINAL.has(t.status) ? null : { status: "failed", error, endedAt: new Date() }));
        ctx.emit("task", taskView(ended));
      }
      await sleep(PART_WATCH_MS, ctx.signal);
    }
  } catch (error) {
    // Cancelled: the task jobs see it within a poll; the run ends once they have stopped writing.
    if (ctx.signal.aborted && !ctx.run.leaseLost) await waitForPartJobs(tasks, async () => open.map((t) => t.id));
    throw error;
  }
}

/**
 * A task job: the task from its recorded state to its end. "skipped" when the task has ended or its
 * start no longer runs; "stopped" when the run was cancelled or ended meanwhile (the task stays
 * running and is resumed with the run). A task's own failure is recorded on it, not thrown.
 */
export async function runDrTask({ conversationId, taskId }: { conversationId: string; taskId: string }): Promise<"done" | "skipped" | "stopped"> {
  const read = () => Promise.all([getRun({ kind: "deep-research", subjectId: conversationId }), getConversation({ id: conversationId })]);
  const over = ([run, c]: Awaited<ReturnType<typeof read>>) => !run || run.status !== "running" || run.cancelRequestedAt !== null || !c?.active;
  const [[run, c], task] = await Promise.all([read(), getTask(taskId)]);
  if (!run || !c || !task || task.conversationId !== conversationId || TERMINAL.has(task.status) || over([run, c])) return "skipped";
  const stop = stopWhen(async () => over(await read()), PART_STOP_POLL_MS, `task ${taskId}`);
  const sink = sharedSeqSink(run.id);
  const handle = {
    id: run.id, kind: "deep-research" as const, subjectId: conversationId, userId: run.userId, mode: run.mode,
    signal: stop.signal, leaseLost: false, phased: false, continued: false,
  };
  try {
    await runTask(new DrContext(conversationId, c.userId, handle, sink), task);
    return stop.signal.aborted ? "stopped" : "done";
  } catch (error) {
    if (stop.signal.aborted) return "stopped";
    console.error(`[quarry] task ${taskId} of conversation ${conversationId}: ${errorMessage(error)}`);
    throw error;
  } finally {
    stop.dispose();
    await sink.flushed();
  }
}
