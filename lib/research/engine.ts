// Tree research as an engine of the run platform: the registry (lib/runs) claims the run and keeps
// its lease; this executes it from what the database holds, and keeps the research's own status.
import { getEnv } from "../env";
import { eventBus } from "../events/bus";
import { loadResearchGraph } from "../db/research";
import { limiters } from "../limits";
import type { Engine, RunHandle, RunOutcome } from "../runs/engine";
import { RunContext, type RunHooks } from "./context";
import { writeErrorOutputFile } from "./error-output";
import { toRunStatus } from "./public-shape";
import { TreeRunner } from "./runner";
import * as store from "./store";

/** The contexts of the runs executing in this process, for the report draft of a stream's snapshot. */
const contexts = new Map<string, RunContext>();

/** The report text streamed so far, for a client that connects while it is being written here. */
export function reportDraft(researchId: string): string | null {
  return contexts.get(researchId)?.reportDraft || null;
}

export const treeEngine: Engine<RunHooks> = {
  kind: "tree",

  async execute(run: RunHandle, hooks: RunHooks = {}): Promise<RunOutcome> {
    const research = await store.loadResearch(run.subjectId);
    if (!research) return "failed";
    if (research.status !== "running") return research.status === "completed" ? "completed" : research.status === "cancelled" ? "cancelled" : "failed";
    const ctx = new RunContext(research, getEnv(), eventBus, run.signal, hooks, () => run.leaseLost);
    contexts.set(run.subjectId, ctx);
    const unwatch = ctx.watchProvider(limiters().llmHealth);
    try {
      const outcome = await new TreeRunner(ctx).run(run.mode === "report" ? "report" : "tree");
      if (outcome === "failed") {
        const graph = await loadResearchGraph({ id: run.subjectId });
        if (graph) await writeErrorOutputFile(graph);
      }
      return outcome;
    } finally {
      unwatch();
      contexts.delete(run.subjectId);
    }
  },

  markCancelled: (researchId: string) => store.markCancelled(researchId),

  async announce(researchId: string): Promise<void> {
    const research = await store.loadResearch(researchId);
    if (research) eventBus.emit(researchId, { type: "run.status", run: toRunStatus(research) });
  },
};
