// The run registry: executes runs of every engine in this process, under a lease in the database.
// Claiming is a compare-and-set; a live run renews its lease on a heartbeat and stops when it loses
// it or when a cancel is recorded (by any process). On start-up and on every heartbeat the registry
// takes over runs whose lease expired — never a live one owned by another process.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { claimRun, finishRun, getRun, heartbeatRun, orphanedRuns, requestCancel, reserveSeq, setRunsPaused, type RunKind } from "../db/runs";
import { eventBus } from "../events/bus";
import { trackOpening } from "./events";
import { errorMessage } from "../errors";
import { getEnv } from "../env";
import { limiters } from "../limits";
import type { HealthState } from "../ai/provider-health";
import type { Engine, RunHandle, RunOutcome } from "./engine";

/** A run executing in this process. */
interface ActiveRun {
  handle: RunHandle & { leaseLost: boolean };
  controller: AbortController;
}

const key = (kind: RunKind, subjectId: string) => `${kind}:${subjectId}`;
/** Event numbers reserved at a time (one database write per this many events). */
const SEQ_BLOCK = 1_000;
/** A lease lasts three heartbeats: a run is stale after three missed beats. */
const leaseMs = () => getEnv().RUN_HEARTBEAT_MS * 3;

export class RunRegistry {
  /** This process, as a lease owner. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly engines = new Map<RunKind, Engine>();
  /** Runs executing here, by kind and subject. */
  private readonly runs = new Map<string, ActiveRun>();
  /** Each start's claim-and-execute, until it ends: a second start of the subject shares it. */
  private readonly executions = new Map<string, Promise<void>>();
  /** Starts whose event topic is not open yet: settled once it is (or the claim failed). */
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private watchingProvider = false;
  /** Pause writes and announcements, in order: a quick down-then-up must not end up paused. */
  private pauses: Promise<void> = Promise.resolve();

  /** Adds (or replaces) the engine of a kind. */
  register(engine: Engine): void {
    this.engines.set(engine.kind, engine);
  }

  /** The engine of a kind; throws for a kind no engine was registered for. */
  engine(kind: RunKind): Engine {
    const engine = this.engines.get(kind);
    if (!engine) throw new Error(`No engine registered for runs of kind "${kind}"`);
    return engine;
  }

  /**
   * Runs the subject's run here if its lease is free (open it with `openRun` first). Resolves when
   * the run ends in this process, or at once when another process holds it.
   */
  start(kind: RunKind, subjectId: string): Promise<void> {
    const k = key(kind, subjectId);
    let execution = this.executions.get(k);
    if (!execution) {
      execution = this.claimAndExecute(kind, subjectId).finally(() => this.executions.delete(k));
      this.executions.set(k, execution);
    }
    return execution;
  }

  private async claimAndExecute(kind: RunKind, subjectId: string): Promise<void> {
    const engine = this.engine(kind);
    const env = getEnv();
    const row = await getRun({ kind, subjectId });
    if (!row || !(await claimRun({ id: row.id, owner: this.owner, leaseMs: leaseMs() }))) return;
    // This process numbers the run's events from a block reserved after every number used before.
    const topic = { kind, subjectId };
    const reserve = () => reserveSeq({ id: row.id, block: SEQ_BLOCK });
    // Tracked from before the reservation, so that a stream's snapshot never takes its ceiling (lib/runs/events.ts).
    const opened = (async () => eventBus.open(topic, { runId: row.id, firstSeq: await reserve(), blockSize: SEQ_BLOCK, reserve }))();
    const tracking = trackOpening(topic, opened);
    try {
      await opened;
    } catch (error) {
      tracking.forget();
      throw error;
    }
    const controller = new AbortController();
    const handle = { id: row.id, kind, subjectId, userId: row.userId, mode: row.mode, signal: controller.signal, leaseLost: false };
    const entry: ActiveRun = { handle, controller };
    const k = key(kind, subjectId);
    this.runs.set(k, entry);
    this.watchProvider();
    // Started during an outage: it waits like the others, so it shows paused like them.
    if (limiters().llmHealth.state.down) this.showPause([entry], limiters().llmHealth.state);
    const beat = setInterval(() => void this.heartbeat(entry), env.RUN_HEARTBEAT_MS);
    let outcome: RunOutcome = "failed";
    let error: string | null = null;
    try {
      outcome = await engine.execute(handle);
    } catch (e) {
      error = errorMessage(e);
      console.error(`[quarry] ${kind} run ${row.id} crashed:`, e);
    } finally {
      clearInterval(beat);
      this.runs.delete(k);
      eventBus.close(topic);
      tracking.forget();
    }
    if (outcome !== "abandoned" && !handle.leaseLost) await finishRun({ id: row.id, owner: this.owner, status: outcome, error });
  }

  private async heartbeat(entry: ActiveRun): Promise<void> {
    try {
      const { held, cancelRequested } = await heartbeatRun({ id: entry.handle.id, owner: this.owner, leaseMs: leaseMs() });
      if (!held) {
        entry.handle.leaseLost = true;
        entry.controller.abort(new Error("Another process took this run over"));
      } else if (cancelRequested) {
        entry.controller.abort(new Error("Cancelled by the user"));
      }
    } catch (error) {
      // A missed beat is survivable: the lease outlives a few of them.
      console.error(`[quarry] heartbeat of run ${entry.handle.id} failed:`, error);
    }
  }

  /**
   * Cancels a running subject: marks it cancelled, records the cancel for whichever process runs it,
   * and stops it here at once if it runs here. False if it was not running.
   */
  async cancel(kind: RunKind, subjectId: string): Promise<boolean> {
    const engine = this.engine(kind);
    const cancelled = await engine.markCancelled(subjectId);
    await requestCancel({ kind, subjectId });
    this.runs.get(key(kind, subjectId))?.controller.abort(new Error("Cancelled by the user"));
    await this.executions.get(key(kind, subjectId));
    // The terminal status goes out last: a stream ends on it, after the settled rows' updates.
    if (cancelled) await engine.announce(subjectId);
    return cancelled;
  }

  /**
   * Every run here shows itself paused while the LLM provider is down (its calls wait for it), and
   * running again when it is back: the run row records it, then the engine tells its watchers.
   */
  private watchProvider(): void {
    if (this.watchingProvider) return;
    this.watchingProvider = true;
    limiters().llmHealth.subscribe((state) => this.showPause([...this.runs.values()], state));
  }

  private showPause(entries: ActiveRun[], state: HealthState): void {
    const paused = state.down ? { reason: `Waiting for the LLM provider: ${state.reason}`, since: state.since ?? new Date() } : null;
    this.pauses = this.pauses
      .then(async () => {
        await setRunsPaused({ ids: entries.map((e) => e.handle.id), owner: this.owner, paused });
        for (const { handle } of entries) await this.engine(handle.kind).announcePause?.(handle.subjectId);
      })
      .catch((error: unknown) => console.error("[quarry] could not record the pause:", error));
  }

  /** Makes runs paused by their LLM provider try it again at once. False if nothing was waiting. */
  retryProviderNow(): boolean {
    return limiters().llmHealth.nudge();
  }

  /** Starts every run no live process holds (queued, or with an expired lease). Returns their subjects. */
  async takeOverOrphans(): Promise<string[]> {
    const taken: string[] = [];
    for (const run of await orphanedRuns()) {
      const kind = run.kind as RunKind;
      if (!this.engines.has(kind) || this.executions.has(key(kind, run.subjectId))) continue;
      taken.push(run.subjectId);
      void this.start(kind, run.subjectId).catch((error: unknown) => console.error(`[quarry] could not take over run ${run.id}:`, error));
    }
    return taken;
  }

  /** Takes over orphaned runs now and on every heartbeat interval from now on. */
  startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      this.takeOverOrphans()
        .then((ids) => ids.length && console.log(`[quarry] took over ${ids.length} run(s) whose process stopped: ${ids.join(", ")}`))
        .catch((error: unknown) => console.error("[quarry] run sweep failed:", error));
    }, getEnv().RUN_HEARTBEAT_MS);
    this.sweeper.unref();
  }
}

const globalForRuns = globalThis as unknown as { quarryRuns?: RunRegistry };
export const runRegistry: RunRegistry = (globalForRuns.quarryRuns ??= new RunRegistry());
