// Tree research as an engine of the run platform: exploreTree, then the report as its own last
// phase. The registry (lib/runs) claims the run and keeps its lease; this executes it from what the
// database holds and keeps the research's own status.
import { LlmUnavailableError } from "../ai/errors";
import { getEnv } from "../env";
import { errorMessage } from "../errors";
import { eventBus } from "../events/bus";
import { loadResearchGraph } from "../db/research";
import { limiters } from "../limits";
import type { Engine, RunHandle, RunOutcome, RunSnapshot } from "../runs/engine";
import { emitOutsideRun } from "../runs/events";
import { isFinalTreeEvent, isTerminalStatus, treeTopic, type TreeSnapshot } from "../explore/events";
import { RunContext, scopeOfResearch } from "../explore/context";
import { writeErrorOutputFile } from "./error-output";
import { exploreTree } from "../explore/explore";
import { exploreOnWorkers, settleOnWorkers, treeNodeQueue } from "../explore/distributed";
import { SharedSeqSink, sharedSeqSink } from "../runs/shared-events";
import { toResearchView, toRunStatus } from "../explore/public-shape";
import { buildReport } from "./report-step";
import { verifiedReport } from "./verify-step";
import { deleteVerification, findVerification } from "../db/verifications";
import * as store from "../db/tree";

/** The contexts of the runs executing in this process, for the report draft of a stream's snapshot. */
const contexts = new Map<string, RunContext>();

/** The report text streamed so far, for a client that connects while it is being written here. */
export function reportDraft(researchId: string): string | null {
  return contexts.get(researchId)?.reportDraft || null;
}

export const treeEngine: Engine = {
  kind: "tree",

  async execute(run: RunHandle): Promise<RunOutcome> {
    const research = await store.loadResearch(run.subjectId);
    if (!research) return "failed";
    // Queue mode's workers: the tree's nodes are jobs any worker takes; this job plans the roots and
    // parks while they work, and the job that finds the tree explored writes the report, numbering
    // events like the nodes do.
    const nodes = treeNodeQueue();
    if (research.status !== "running") {
      if (research.status === "cancelled" && nodes) {
        // Cancelled while parked (its job woken by the cancel): settle what the node jobs leave.
        const sink = sharedSeqSink(run.id);
        await settleOnWorkers({ scope: scopeOfResearch(research), sink, nodes });
        await sink.flushed();
      }
      return research.status === "completed" ? "completed" : research.status === "cancelled" ? "cancelled" : "failed";
    }
    const scope = scopeOfResearch(research);
    const leaseLost = () => run.leaseLost;
    const sink = nodes ? sharedSeqSink(run.id) : eventBus;
    const ctx = new RunContext(scope, getEnv(), sink, run.signal, leaseLost);
    contexts.set(run.subjectId, ctx);
    const unwatch = ctx.watchProvider(limiters().llmHealth, { pausedNow: research.pausedAt !== null });
    try {
      // mode "report": write the report from what a stopped research found, and say so (a report
      // written before is replaced, and so is its verification).
      if (run.mode === "report") {
        await deleteVerification({ researchId: ctx.id });
        await notePartial(ctx);
      }
      // A verification already begun means the report was written: resume there, not before.
      const begun = await findVerification({ researchId: ctx.id });
      if (!begun && run.mode !== "report") {
        if (nodes && sink instanceof SharedSeqSink) {
          // Node jobs that ended in an earlier execution run again only in a run's first job (a resumed
          // run), not in the jobs a parked run is woken in.
          const explored = await exploreOnWorkers({ scope, sink, signal: run.signal, leaseLost, nodes, replaceEnded: !run.continued });
          if (explored === "parked") return "parked";
        } else {
          await exploreTree({ scope, sink: eventBus, signal: run.signal, leaseLost });
        }
      }
      run.signal.throwIfAborted();

      const report = await verifiedReport(ctx, begun ? { markdown: begun.original } : await buildReport(ctx));
      await ctx.settled();
      const done = await store.finishResearch(ctx.id, { status: "completed", report, error: null });
      // Cancelled while the report was written (from any process): the cancel stands.
      if (!done) return "cancelled";
      ctx.emit({ type: "report.done", data: { markdown: report } });
      ctx.emit({ type: "run.status", data: toRunStatus(done) });
      return "completed";
    } catch (error) {
      // Another process owns the run now: it goes on from the database; nothing more is written here.
      if (run.leaseLost) return "abandoned";
      await ctx.settled();
      if (run.signal.aborted) return "cancelled";
      return fail(ctx, error);
    } finally {
      unwatch();
      contexts.delete(run.subjectId);
      // Every event is out before the registry ends the run.
      if (sink instanceof SharedSeqSink) await sink.flushed();
    }
  },

  sharesEvents: () => treeNodeQueue() !== undefined,

  markCancelled: (researchId: string) => store.markCancelled(researchId),

  async announce(researchId: string): Promise<void> {
    const research = await store.loadResearch(researchId);
    if (research) await emitOutsideRun(treeTopic(researchId), { type: "run.status", data: toRunStatus(research) });
  },

  async snapshot(researchId: string, userId: string | null): Promise<RunSnapshot<TreeSnapshot> | null> {
    const graph = await loadResearchGraph({ id: researchId, userId });
    if (!graph) return null;
    return { data: { research: toResearchView(graph), report_draft: reportDraft(researchId) }, final: isTerminalStatus(graph.status) };
  },

  isFinal: isFinalTreeEvent,
};

async function notePartial(ctx: RunContext): Promise<void> {
  const queries = await store.queriesOf(ctx.id);
  const done = queries.filter((q) => q.status === "completed").length;
  await ctx.warn(`The report was written from what the research found before it stopped: ${done} of ${queries.length} queries had finished.`);
}

/** Records the failure (keeping any partial report) and writes error-output.md. */
async function fail(ctx: RunContext, error: unknown): Promise<RunOutcome> {
  const current = await store.loadResearch(ctx.id);
  if (current?.status !== "running") return "cancelled";
  if (!(error instanceof LlmUnavailableError)) console.error(`[quarry] research ${ctx.id} failed:`, error);
  const failed = await store.finishResearch(ctx.id, {
    status: "failed",
    error: errorMessage(error),
    report: current.report ?? (ctx.reportDraft || null),
  });
  // A cancel recorded since the read above stands.
  if (!failed) return "cancelled";
  ctx.emit({ type: "run.status", data: toRunStatus(failed) });
  const graph = await loadResearchGraph({ id: ctx.id });
  if (graph) await writeErrorOutputFile(graph);
  return "failed";
}
