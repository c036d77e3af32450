// Deep Research as an engine of the run platform. The registry claims the conversation's run and
// keeps its lease (heartbeat every RUN_HEARTBEAT_MS, stale after three missed beats); this runs the
// start's loop from what the database holds, phase after phase, until the message is done (in queue
// mode one phase per job: the run's next job, on any worker, takes up the next). A stop asked for by
// the user, wherever it was sent, aborts the phase at work within a poll and ends the loop; what the
// earlier phases saved stays, and the unfinished tasks are recorded skipped.
import { errorMessage } from "../errors";
import { finishMessage, getConversation, getMessage, updateConversation, updateMessage } from "../db/conversations";
import type { Engine, RunHandle, RunOutcome, RunSnapshot } from "../runs/engine";
import { emitOutsideRun } from "../runs/events";
import { getRun } from "../db/runs";
import { DrContext } from "./context";
import { drTopic } from "./events";
import { runPhase } from "./iteration";
import { conversationSnapshot, type ConversationSnapshot } from "./snapshot";
import { isFinalDrEvent } from "./stream";
import { messageView, runGuardView, stateView, taskView } from "./views";
import { messagesOf } from "../db/conversations";
import { parseJson } from "../db/json";
import { sharedSeqSink } from "../runs/shared-events";
import { drTaskQueue, stopTasksOnWorkers } from "./distributed";
import { finishChildResearch, tasksOf, updateTask } from "../db/research-tasks";
import { TERMINAL } from "./tasks";
import { PART_STOP_POLL_MS } from "../runs/part-jobs";

export const deepResearchEngine: Engine = {
  kind: "deep-research",

  async execute(run: RunHandle): Promise<RunOutcome> {
    const c = await getConversation({ id: run.subjectId });
    const root = c?.rootMessageId ? await getMessage({ id: c.rootMessageId }) : null;
    if (!c || !root) return "failed";
    if (root.status !== "processing") {
      // The start ended but its process died before the guard was released: release it now.
      await updateConversation(c.id, (cur) => (cur.active && cur.rootMessageId === root.id ? { active: false, lastResult: root.status, runEndedAt: root.completedAt ?? new Date() } : null));
      return root.status === "completed" ? "completed" : "failed";
    }
    // Queue mode: the level's tasks run in jobs of their own, on several workers, so every process
    // numbers the run's events from the database (the registry opened no block of them here).
    const sink = drTaskQueue() ? sharedSeqSink(run.id) : undefined;
    // The user's stop, wherever it was sent, aborts the phase at work (its LLM calls) within a poll.
    const stop = watchForStop(root.id);
    const ctx = new DrContext(c.id, c.userId, run, sink, stop.signal);
    // A queue job that takes the run up after the previous job's phase recovers nothing; whether an
    // earlier job of the start did is kept in the start's state.
    const recovered = run.continued ? parseJson<{ recovered?: boolean }>(root.state, {}).recovered === true : Boolean(root.startedAt);
    if (!run.continued) {
      if (recovered) {
        // This start ran in a process that died: go on from the phase it had reached.
        await updateConversation(c.id, () => ({ lastResult: "stale_recovered" }));
        await updateMessage(root.id, { state: JSON.stringify({ ...parseJson<object>(root.state, {}), recovered: true }) });
      } else {
        await updateMessage(root.id, { startedAt: new Date() });
      }
    }
    await ctx.emitRun();
    try {
      for (let phases = 0; ; phases++) {
        const m = (await getMessage({ id: root.id }))!;
        if (m.phase === "done") break;
        // A stop ends the loop here (a phase it caught at work was aborted): what the earlier phases
        // saved stands; the level's unfinished tasks stop (queue mode: their jobs see the stop within
        // a poll) and are recorded skipped.
        if (m.stopRequestedAt) {
          await settleStopped(ctx);
          break;
        }
        ctx.check();
        // Queue mode: one phase per job; the next runs in the run's next job, on whichever worker is free.
        if (phases > 0 && run.phased) return "handed-off";
        // Queue mode: the job waits, holding no slot, until the level's last task job wakes it.
        if ((await runPhase(ctx, m)) === "parked") return "parked";
      }
      await finish(ctx, root.id, "completed", null, recovered);
      return "completed";
    } catch (error) {
      if (run.leaseLost) return "abandoned";
      if (run.signal.aborted) {
        await stopTasksOnWorkers(c.id);
        await finish(ctx, root.id, "failed", "Cancelled", recovered);
        return "cancelled";
      }
      if (stop.signal.aborted) {
        await settleStopped(ctx);
        await finish(ctx, root.id, "completed", null, recovered);
        return "completed";
      }
      console.error(`[quarry] deep research ${c.id} failed:`, error);
      await finish(ctx, root.id, "failed", errorMessage(error), recovered);
      return "failed";
    } finally {
      stop.dispose();
      // Every event is out before the registry hands the run on or ends it.
      await sink?.flushed();
    }
  },

  sharesEvents: () => drTaskQueue() !== undefined,

  async markCancelled(conversationId: string): Promise<boolean> {
    const c = await getConversation({ id: conversationId });
    return Boolean(c?.active);
  },

  async announce(conversationId: string): Promise<void> {
    const c = await getConversation({ id: conversationId });
    if (!c) return;
    const run = await getRun({ kind: "deep-research", subjectId: conversationId });
    await emitOutsideRun(drTopic(conversationId), { type: "run", data: runGuardView(c, run) });
  },

  async snapshot(conversationId: string, userId: string | null): Promise<RunSnapshot<ConversationSnapshot> | null> {
    // Every conversation has an owner: one with none to match is nobody's.
    const s = userId ? await conversationSnapshot({ id: conversationId, userId }) : null;
    return s ? { data: s, final: !s.deepResearchRun.isRunning } : null;
  },

  isFinal: isFinalDrEvent,

  // The run part with its phase, as the loop sends it (ctx.emitRun), now paused or going again.
  async announcePause(conversationId: string): Promise<void> {
    const c = await getConversation({ id: conversationId });
    if (!c?.active) return;
    const [run, root] = await Promise.all([getRun({ kind: "deep-research", subjectId: conversationId }), c.rootMessageId ? getMessage({ id: c.rootMessageId }) : null]);
    await emitOutsideRun(drTopic(conversationId), { type: "run", data: runGuardView(c, run, root) });
  },
};

/**
 * Ends the start: its message gets the last reply as its result, and the guard lets the next start in.
 * A start that was taken over after its process died and then completed keeps `stale_recovered` as the
 * guard's last result (its message says `completed`); a failure is reported as `failed` either way.
 */
async function finish(ctx: DrContext, rootId: string, status: "completed" | "failed", error: string | null, recovered: boolean): Promise<void> {
  const replies = (await messagesOf(ctx.conversationId)).filter((m) => m.role === "assistant" && m.replyToId === rootId);
  const last = replies.at(-1);
  const stopped = !last || (await getMessage({ id: rootId }))?.phase !== "done";
  const text = last?.content ?? (status === "completed" ? "The research was stopped before its first iteration finished." : "");
  const message = await finishMessage(rootId, {
    status,
    error,
    resultText: status === "completed" ? (stopped && last ? `${text}\n\n(Stopped at the user's request.)` : text) : last?.content ?? null,
    suggestedNextSteps: last?.suggestedNextSteps ?? "[]",
    completedAt: new Date(),
  });
  // Ended already (by the process that took the run over): its end stands, and so does the guard.
  if (!message) return;
  const lastResult = recovered && status === "completed" ? "stale_recovered" : status;
  // Only this start's guard is released: a compare-and-set on the conversation still running it.
  const c = await updateConversation(ctx.conversationId, (cur) =>
    cur.active && cur.rootMessageId === rootId ? { active: false, lastResult, lastError: error, runEndedAt: new Date() } : null,
  );
  ctx.emit("message", messageView(message));
  ctx.emit("state", stateView(c));
  await ctx.emitRun();
}

/**
 * The user's stop, seen within PART_STOP_POLL_MS wherever it was sent: its signal aborts once the
 * start's message records it. `dispose` ends the polling.
 */
function watchForStop(messageId: string): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    getMessage({ id: messageId })
      .then((m) => {
        if (!m?.stopRequestedAt) return;
        controller.abort(new Error("Stopped at the user's request"));
        clearInterval(timer);
      })
      .catch((error: unknown) => console.error(`[quarry] deep research: stop poll of message ${messageId} failed:`, error))
      .finally(() => (polling = false));
  }, PART_STOP_POLL_MS);
  timer.unref();
  return { signal: controller.signal, dispose: () => clearInterval(timer) };
}

/**
 * A stopped start's unfinished tasks: once no job works on them (queue mode), each is recorded
 * skipped, saying so, and its literature tree's research ends (what it found stays).
 */
async function settleStopped(ctx: DrContext): Promise<void> {
  await stopTasksOnWorkers(ctx.conversationId);
  for (const task of await tasksOf(ctx.conversationId)) {
    if (TERMINAL.has(task.status)) continue;
    const ended = await updateTask(task.id, (t) => (TERMINAL.has(t.status) ? null : { status: "skipped", error: "Stopped at the user's request", endedAt: new Date() }));
    if (task.childResearchId && ended.status === "skipped") await finishChildResearch(task.childResearchId, "failed", "Stopped at the user's request");
    ctx.emit("task", taskView(ended));
  }
}
