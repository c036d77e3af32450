// The run registry (embedded default): executes research in this server process, one run per
// research, and resumes every research left `running` by a crash or restart.
import { getEnv } from "../env";
import { eventBus, type EventBus } from "../events/bus";
import { loadResearchGraph, runningResearchIds } from "../db/research";
import { RunContext, type RunHooks } from "../research/context";
import { writeErrorOutputFile } from "../research/error-output";
import { toRunStatus } from "../research/public-shape";
import { limiters } from "../limits";
import { TreeRunner, type RunMode } from "../research/runner";
import * as store from "../research/store";

interface ActiveRun {
  controller: AbortController;
  context?: RunContext;
  done: Promise<void>;
}

export class RunRegistry {
  private readonly runs = new Map<string, ActiveRun>();

  constructor(private readonly bus: EventBus) {}

  isActive(researchId: string): boolean {
    return this.runs.has(researchId);
  }

  /** The report text streamed so far, for a client that connects while it is being written. */
  reportDraft(researchId: string): string | null {
    return this.runs.get(researchId)?.context?.reportDraft || null;
  }

  /**
   * Starts (or resumes) a research whose status is `running`; `mode: "report"` only writes its report
   * from what it found. Idempotent within the process.
   */
  start(researchId: string, hooks: RunHooks = {}, mode: RunMode = "tree"): Promise<void> {
    const existing = this.runs.get(researchId);
    if (existing) return existing.done;
    const controller = new AbortController();
    const entry: ActiveRun = { controller, done: Promise.resolve() };
    entry.done = this.execute(researchId, entry, hooks, mode).finally(() => this.runs.delete(researchId));
    this.runs.set(researchId, entry);
    return entry.done;
  }

  /** Makes a paused run try its LLM provider again at once. False if nothing was waiting. */
  retryProviderNow(): boolean {
    return limiters().llmHealth.nudge();
  }

  private async execute(researchId: string, entry: ActiveRun, hooks: RunHooks, mode: RunMode): Promise<void> {
    let unwatch = () => {};
    try {
      const research = await store.loadResearch(researchId);
      if (!research || research.status !== "running") return;
      entry.context = new RunContext(research, getEnv(), this.bus, entry.controller.signal, hooks);
      unwatch = entry.context.watchProvider(limiters().llmHealth);
      const outcome = await new TreeRunner(entry.context).run(mode);
      unwatch();
      if (outcome === "failed") {
        const graph = await loadResearchGraph({ id: researchId });
        if (graph) await writeErrorOutputFile(graph);
      }
    } catch (error) {
      console.error(`[quarry] run ${researchId} crashed:`, error);
    } finally {
      unwatch();
    }
  }

  /** Cancels a running research. Returns false if it was not running. */
  async cancel(researchId: string): Promise<boolean> {
    const cancelled = await store.markCancelled(researchId);
    const run = this.runs.get(researchId);
    run?.controller.abort(new Error("Cancelled by the user"));
    if (cancelled) {
      const research = await store.loadResearch(researchId);
      if (research) this.bus.emit(researchId, { type: "run.status", run: toRunStatus(research) });
    }
    await run?.done;
    return cancelled;
  }

  /** Resumes every research left running (called once at server start). */
  async resumeAll(): Promise<string[]> {
    const ids = await runningResearchIds();
    for (const id of ids) void this.start(id);
    return ids;
  }

  activeCount(): number {
    return this.runs.size;
  }
}

const globalForRuns = globalThis as unknown as { quarryRuns?: RunRegistry };
export const runRegistry: RunRegistry = (globalForRuns.quarryRuns ??= new RunRegistry(eventBus));
