// The run registry: executes runs of every engine in this process, under a lease in the database.
// Claiming is a compare-and-set; a live run renews its lease on a heartbeat and stops when it loses
// it. A cancel recorded by any process reaches the owner through a short poll (one query for all the
// runs executing here), which also stops a run whose rows were deleted. On start-up and on every
// heartbeat the registry takes over runs whose lease expired — never a live one owned by another process.
// In queue mode (lib/queue/) a dispatcher is set: `start` enqueues a job instead of executing, and a
// worker process executes each job with `runJob`, under the same lease.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { claimRun, finishRun, handOffRun, LEASE_BEATS, getRun, heartbeatRun, orphanedRuns, requestCancel, reserveSeq, runStopped, runsToStop, setRunsPaused, type RunKind } from "../db/runs";
import { eventBus } from "../events/bus";
import { eventLog } from "../events/log";
import { trackOpening } from "./events";
import { errorMessage, OwnershipLostError } from "../errors";
import { getEnv } from "../env";
import { limiters } from "../limits";
import type { HealthState } from "../ai/provider-health";
import type { Engine, RunHandle, RunOutcome } from "./engine";

/** Queue mode's hand-off: queues the run's job (once: `added` is false when it was queued already). */
export type Dispatcher = (kind: RunKind, subjectId: string) => Promise<{ jobId: string; added: boolean }>;

/** A run executing in this process. */
interface ActiveRun {
  handle: RunHandle & { leaseLost: boolean };
  controller: AbortController;
  /** When the lease ends unless renewed (this process's clock, as it asked for the claim or beat). */
  leaseEnds: number;
}

const key = (kind: RunKind, subjectId: string) => `${kind}:${subjectId}`;
/** Event numbers reserved at a time (one database write per this many events). */
const SEQ_BLOCK = 1_000;
/**
 * How often the owner asks the database whether its runs were cancelled (or deleted) elsewhere. A
 * cancel must stop a run within a second or two wherever it was sent; the heartbeat (10 s) is too
 * slow for that, and one indexed read for all the runs here twice a second costs next to nothing.
 */
const CANCEL_POLL_MS = 500;
/** The event log is pruned every this many heartbeat intervals. */
const PRUNE_EVERY_BEATS = 30;
/** How often a queued job whose run another process holds tries to claim it again (until that lease expires). */
const CLAIM_RETRY_MS = 1_000;
/** How long a delete waits for a run executing in another process to stop. */
const STOP_WAIT_MS = 10_000;

export class RunRegistry {
  /** This process, as a lease owner. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly engines = new Map<RunKind, Engine>();
  /** Runs executing here, by kind and subject. */
  private readonly runs = new Map<string, ActiveRun>();
  /** Each start's claim-and-execute, until it ends: a second start of the subject shares it (null: not claimed here). */
  private readonly executions = new Map<string, Promise<RunOutcome | null>>();
  /** Queue mode: hands a run to the queue (returns its job id) instead of executing it here. */
  private dispatcher: Dispatcher | undefined;
  /** Queue mode: puts a parked run's job back in the queue at once. */
  private waker: ((kind: RunKind, subjectId: string) => Promise<void>) | undefined;
  /** Queue mode: whether the queue can take a job now (false at once while Redis is down). */
  private reachable: (() => Promise<boolean>) | undefined;
  private sweeper: ReturnType<typeof setInterval> | undefined;
  /** The cancel poll: runs only while runs execute here. */
  private cancelPoll: ReturnType<typeof setInterval> | undefined;
  private watchingProvider = false;
  /** Pause writes and announcements, in order: a quick down-then-up must not end up paused. */
  private pauses: Promise<void> = Promise.resolve();
  /** Queue workers: this process's heartbeat, shorter than RUN_HEARTBEAT_MS (see holdLeasesFor). */
  private beatOverrideMs: number | undefined;

  /**
   * Queue workers hold a run's lease no longer than their jobs' locks (QUEUE_LOCK_MS): when a worker
   * dies, its run job goes back to the queue after that lock, and the worker that takes it must find
   * the lease expired too, not wait out three heartbeats (30 s by default) before resuming the run.
   * The lease is still three beats here, each a third of `ms` (never longer than RUN_HEARTBEAT_MS).
   */
  holdLeasesFor(ms: number): void {
    this.beatOverrideMs = Math.max(100, Math.min(Math.floor(ms / LEASE_BEATS), getEnv().RUN_HEARTBEAT_MS));
  }

  /** How often a run executing here renews its lease. */
  private beatMs(): number {
    return this.beatOverrideMs ?? getEnv().RUN_HEARTBEAT_MS;
  }

  /** How long a claim or a heartbeat holds a run here: three beats. */
  private leaseMs(): number {
    return this.beatMs() * LEASE_BEATS;
  }

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
   * Queue mode: from now on `start` (and the orphan sweep) enqueues runs with `dispatch`; a cancel
   * wakes a parked run with `wake`, so that it stops at once; `reachable` says at once whether the
   * queue can take a job now (canStartNow).
   */
  dispatchTo(dispatch: Dispatcher, wake?: (kind: RunKind, subjectId: string) => Promise<void>, reachable?: () => Promise<boolean>): void {
    this.dispatcher = dispatch;
    this.waker = wake;
    this.reachable = reachable;
  }

  /**
   * False when a run started now could not be queued (queue mode with Redis unreachable), so that the
   * start is refused before it stores anything. Always true when runs execute here.
   */
  async canStartNow(): Promise<boolean> {
    return !this.dispatcher || !this.reachable || (await this.reachable());
  }

  /** True when runs are queued for workers rather than executed by the process that starts them. */
  get queueMode(): boolean {
    return this.dispatcher !== undefined;
  }

  /**
   * Runs the subject's run here if its lease is free (open it with `openRun` first). Resolves when
   * the run ends in this process, or at once when another process holds it. In queue mode it
   * resolves once the run's job is queued, or could not be (logged: the run stays queued, and the
   * orphan sweep queues its job once Redis answers again).
   */
  start(kind: RunKind, subjectId: string): Promise<void> {
    if (this.dispatcher) return this.queue(kind, subjectId).then(() => undefined);
    return this.execute(kind, subjectId, { phased: false }).then(() => undefined);
  }

  /**
   * Starts the subject's run: in queue mode queues its job and resolves with the job's id; else
   * executes it in the background here (failures logged) and resolves with null at once. A job that
   * Redis did not take now resolves with the id it will have (see `queue`).
   */
  async startOrQueue(kind: RunKind, subjectId: string): Promise<{ jobId: string } | null> {
    if (this.dispatcher) {
      const jobId = await this.queue(kind, subjectId);
      return jobId === null ? null : { jobId };
    }
    void this.execute(kind, subjectId, { phased: false }).catch((error: unknown) => console.error(`[quarry] ${kind} run ${subjectId} could not start:`, error));
    return null;
  }

  /**
   * Queue mode: queues the run's job and returns its id. When Redis does not take it now (logged), the
   * run stays queued and the run sweep adds its job once Redis answers: the id it will have then (a
   * dispatcher's error names it), else null.
   */
  private async queue(kind: RunKind, subjectId: string): Promise<string | null> {
    try {
      return (await this.dispatcher!(kind, subjectId)).jobId;
    } catch (error) {
      console.error(`[quarry] ${kind} run ${subjectId} could not be queued now (${errorMessage(error)}): it stays queued, and the run sweep queues it once Redis answers`);
      const jobId = (error as { jobId?: unknown }).jobId;
      return typeof jobId === "string" ? jobId : null;
    }
  }

  /**
   * A queue worker's job: executes the run here once its lease is free. While another process holds
   * a live lease (a worker that died keeps it until it expires), it tries again every second; it
   * resolves when the run has ended, here or elsewhere, with "parked" when the engine waits for the
   * run's parts (the worker delays the job until a part wakes it), or with "handed-off" when the engine ended
   * a phase and left the rest to the run's next job (the worker puts the job back in the queue). A
   * job retried after a crash resumes the run from the database, like a takeover.
   */
  async runJob(kind: RunKind, subjectId: string): Promise<"executed" | "ended" | "handed-off" | "parked"> {
    for (;;) {
      const outcome = await this.execute(kind, subjectId, { phased: true });
      if (outcome === "handed-off" || outcome === "parked") return outcome;
      if (outcome !== null) return "executed";
      const row = await getRun({ kind, subjectId });
      if (!row || (row.status !== "queued" && row.status !== "running")) return "ended";
      await new Promise((r) => setTimeout(r, Math.min(CLAIM_RETRY_MS, this.beatMs())));
    }
  }

  /**
   * Claims and executes here, shared by concurrent callers; resolves with the execution's outcome,
   * or null if this process did not claim the run. `onClaim` hears at once whether the claim
   * succeeded (the promise resolves when the execution ends). `phased`: a queue job, which the engine
   * may end after a phase.
   */
  private execute(kind: RunKind, subjectId: string, { phased, onClaim }: { phased: boolean; onClaim?: (claimed: boolean) => void }): Promise<RunOutcome | null> {
    const k = key(kind, subjectId);
    let execution = this.executions.get(k);
    if (!execution) {
      execution = this.claimAndExecute(kind, subjectId, phased, onClaim).finally(() => this.executions.delete(k));
      this.executions.set(k, execution);
    }
    return execution;
  }

  private async claimAndExecute(kind: RunKind, subjectId: string, phased: boolean, onClaim?: (claimed: boolean) => void): Promise<RunOutcome | null> {
    const engine = this.engine(kind);
    const row = await getRun({ kind, subjectId });
    const claimedAt = Date.now();
    const claimed = Boolean(row && (await claimRun({ id: row.id, owner: this.owner, leaseMs: this.leaseMs() })));
    onClaim?.(claimed);
    if (!row || !claimed) return null;
    // This process numbers the run's events from a block reserved after every number used before
    // (unless the engine spreads the run over several processes: then each event is numbered alone).
    const topic = { kind, subjectId };
    const reserve = () => reserveSeq({ id: row.id, block: SEQ_BLOCK });
    const shared = engine.sharesEvents?.() ?? false;
    // Tracked from before the reservation, so that a stream's snapshot never takes its ceiling (lib/runs/events.ts).
    const opened = shared ? Promise.resolve() : (async () => eventBus.open(topic, { runId: row.id, firstSeq: await reserve(), blockSize: SEQ_BLOCK, reserve }))();
    const tracking = shared ? { forget: () => {} } : trackOpening(topic, opened);
    try {
      await opened;
    } catch (error) {
      tracking.forget();
      throw error;
    }
    const controller = new AbortController();
    const handle = { id: row.id, kind, subjectId, userId: row.userId, mode: row.mode, signal: controller.signal, leaseLost: false, phased, continued: row.handoffAt !== null };
    // A run cancelled while no process held it (between two of its queue jobs) stops at once.
    if (row.cancelRequestedAt) controller.abort(new Error("Cancelled by the user"));
    const entry: ActiveRun = { handle, controller, leaseEnds: claimedAt + this.leaseMs() };
    const k = key(kind, subjectId);
    this.runs.set(k, entry);
    this.pollCancels();
    this.watchProvider();
    // Started during an outage: it waits like the others, so it shows paused like them.
    if (limiters().llmHealth.state.down) this.showPause([entry], limiters().llmHealth.state);
    const beat = setInterval(() => void this.heartbeat(entry), this.beatMs());
    const deadline = this.watchLease(entry);
    let outcome: RunOutcome = "failed";
    let error: string | null = null;
    try {
      const ended = await engine.execute(handle);
      // Only a queue job hands off (its worker puts the job back); elsewhere it would leave the run to nobody.
      if ((ended === "handed-off" || ended === "parked") && !phased) throw new Error(`The ${kind} engine handed off run ${row.id}, which is not a queue job`);
      outcome = ended;
      // The owner tells its watchers, wherever the cancel was sent: its streams end on this event
      // (after the rows the engine settled), numbered in the run's own sequence.
      if (outcome === "cancelled" && !handle.leaseLost) {
        await engine.announce(subjectId).catch((e: unknown) => console.error(`[quarry] could not announce the cancel of run ${row.id}:`, e));
      }
    } catch (e) {
      error = errorMessage(e);
      if (handle.leaseLost) console.warn(`[quarry] ${kind} run ${row.id} stopped here (taken over or deleted):`, error);
      else console.error(`[quarry] ${kind} run ${row.id} crashed:`, e);
    } finally {
      clearInterval(beat);
      clearTimeout(deadline.timer);
      this.runs.delete(k);
      if (!shared) eventBus.close(topic);
      tracking.forget();
    }
    // Other processes' streams have every event (the last included) before the run reads as ended.
    await eventBus.drain(topic);
    if (outcome === "handed-off" || outcome === "parked") {
      // The next job's claim takes the run up, wherever it runs.
      return !handle.leaseLost && (await handOffRun({ id: row.id, owner: this.owner })) ? outcome : "abandoned";
    }
    if (outcome !== "abandoned" && !handle.leaseLost) await finishRun({ id: row.id, owner: this.owner, status: outcome, error });
    return outcome;
  }

  /** Starts the cancel poll if it is not running; it stops itself when no run executes here. */
  private pollCancels(): void {
    if (this.cancelPoll) return;
    let polling = false;
    this.cancelPoll = setInterval(() => {
      if (this.runs.size === 0) {
        clearInterval(this.cancelPoll);
        this.cancelPoll = undefined;
        return;
      }
      // A slow database must not stack up polls.
      if (polling) return;
      polling = true;
      const byId = new Map([...this.runs.values()].map((entry) => [entry.handle.id, entry]));
      runsToStop({ ids: [...byId.keys()] })
        .then(({ cancelled, gone }) => {
          for (const id of cancelled) byId.get(id)?.controller.abort(new Error("Cancelled by the user"));
          for (const id of gone) {
            // Deleted with its subject: nothing is left to write to, so stop as if taken over (write nothing more).
            const entry = byId.get(id);
            if (!entry) continue;
            console.warn(`[quarry] ${entry.handle.kind} run ${id} was deleted while it ran here: stopping it`);
            entry.handle.leaseLost = true;
            entry.controller.abort(new OwnershipLostError("The run was deleted"));
          }
        })
        .catch((error: unknown) => console.error("[quarry] cancel poll failed:", error))
        .finally(() => (polling = false));
    }, CANCEL_POLL_MS);
    this.cancelPoll.unref();
  }

  /**
   * Stops the run when its lease ends with no beat renewing it: a process that was stopped or stalled
   * past its lease (SIGSTOP, a long pause) may find another owner, and must make no LLM call or write
   * before its next beat says so. The timer fires, late, as the process resumes: before the database
   * round trip that precedes every LLM call (its usage `begin`) has come back.
   */
  private watchLease(entry: ActiveRun): { timer?: ReturnType<typeof setTimeout> } {
    const deadline: { timer?: ReturnType<typeof setTimeout> } = {};
    const arm = () => {
      deadline.timer = setTimeout(() => {
        if (Date.now() < entry.leaseEnds) return arm();
        console.warn(`[quarry] ${entry.handle.kind} run ${entry.handle.id}: its lease ended ${Date.now() - entry.leaseEnds} ms ago unrenewed: stopping it here`);
        entry.handle.leaseLost = true;
        entry.controller.abort(new OwnershipLostError("This process's lease on the run ended (it was stalled): another may own it"));
      }, Math.max(0, entry.leaseEnds - Date.now()));
      deadline.timer.unref();
    };
    arm();
    return deadline;
  }

  private async heartbeat(entry: ActiveRun): Promise<void> {
    try {
      const sentAt = Date.now();
      const { held } = await heartbeatRun({ id: entry.handle.id, owner: this.owner, leaseMs: this.leaseMs() });
      if (held) entry.leaseEnds = Math.max(entry.leaseEnds, sentAt + this.leaseMs());
      if (!held) {
        entry.handle.leaseLost = true;
        entry.controller.abort(new OwnershipLostError("Another process took this run over"));
      }
    } catch (error) {
      // A missed beat is survivable: the lease outlives a few of them.
      console.error(`[quarry] heartbeat of run ${entry.handle.id} failed:`, error);
    }
  }

  /**
   * Cancels a running subject: marks it cancelled, records the cancel for whichever process runs it
   * (its cancel poll stops it there), and stops it here at once if it runs here. False if it was not
   * running.
   */
  async cancel(kind: RunKind, subjectId: string): Promise<boolean> {
    const engine = this.engine(kind);
    const cancelled = await engine.markCancelled(subjectId);
    await requestCancel({ kind, subjectId });
    const here = this.runs.get(key(kind, subjectId));
    if (here) {
      // The owner announces the end once the engine has settled its work (claimAndExecute).
      here.controller.abort(new Error("Cancelled by the user"));
      await this.executions.get(key(kind, subjectId));
    } else {
      // A parked run (queue mode) stops now, not at its next look at its parts.
      await this.waker?.(kind, subjectId).catch((error: unknown) => console.error(`[quarry] could not wake ${kind} run ${subjectId} to stop it:`, error));
      // For this process's streams of the subject; the owner announces it to its own when it stops.
      if (cancelled) await engine.announce(subjectId);
    }
    return cancelled;
  }

  /**
   * Cancels a subject and waits (at most STOP_WAIT_MS) until no process executes it any more, so that
   * its rows can be deleted under no writer. False when it still runs elsewhere after the wait.
   */
  async cancelAndWait(kind: RunKind, subjectId: string): Promise<boolean> {
    await this.cancel(kind, subjectId);
    const deadline = Date.now() + STOP_WAIT_MS;
    while (!(await runStopped({ kind, subjectId }))) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
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

  /**
   * Starts every run no live process holds (queued past its opener's grace, or with an expired lease).
   * Returns the subjects this process claimed (another process's sweep may win a claim).
   */
  async takeOverOrphans(): Promise<string[]> {
    const claims: Promise<string | null>[] = [];
    for (const run of await orphanedRuns()) {
      const kind = run.kind as RunKind;
      if (!this.engines.has(kind) || this.executions.has(key(kind, run.subjectId))) continue;
      if (this.dispatcher) {
        // A queued run usually has its job already (waiting, or held by a worker): only a missing job is news.
        if ((await this.dispatcher(kind, run.subjectId)).added) claims.push(Promise.resolve(run.subjectId));
        continue;
      }
      claims.push(
        new Promise((resolve) => {
          this.execute(kind, run.subjectId, { phased: false, onClaim: (claimed) => resolve(claimed ? run.subjectId : null) }).catch((error: unknown) => {
            console.error(`[quarry] could not take over run ${run.id}:`, error);
            resolve(null);
          });
        }),
      );
    }
    return (await Promise.all(claims)).filter((id): id is string => id !== null);
  }

  /** Takes over orphaned runs now and on every heartbeat interval from now on; prunes the event log now and then. */
  startSweeping(): void {
    if (this.sweeper) return;
    let beats = 0;
    this.sweeper = setInterval(() => {
      if (beats++ % PRUNE_EVERY_BEATS === 0) eventLog().prune().catch((error: unknown) => console.error("[quarry] could not prune the event log:", error));
      this.takeOverOrphans()
        .then((ids) => ids.length && console.log(`[quarry] took over ${ids.length} run(s) whose process stopped: ${ids.join(", ")}`))
        .catch((error: unknown) => console.error("[quarry] run sweep failed:", error));
    }, getEnv().RUN_HEARTBEAT_MS);
    this.sweeper.unref();
  }
}

const globalForRuns = globalThis as unknown as { quarryRuns?: RunRegistry };
export const runRegistry: RunRegistry = (globalForRuns.quarryRuns ??= new RunRegistry());
