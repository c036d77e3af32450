// The engine interface: what every research engine (tree research today; Deep Research and the
// answer agent next) tells the run registry. The registry owns leases, heartbeats, takeover, cancel
// and the run rows; an engine only executes a run and keeps its own objects' statuses.
import type { RunKind } from "../db/runs";
import type { RunEvent } from "../events/bus";

/** One execution, as the registry hands it to its engine. */
export interface RunHandle {
  readonly id: string;
  readonly kind: RunKind;
  /** The engine's own object (a research id, …). */
  readonly subjectId: string;
  readonly userId: string | null;
  /** Engine-specific start mode, as given to `openRun`. */
  readonly mode: string;
  /** Aborted on cancel (from any process) and when the lease is lost. */
  readonly signal: AbortSignal;
  /** True once another process took the run over (or its row was deleted): stop, and write nothing more. */
  readonly leaseLost: boolean;
  /**
   * Queue mode: this execution is a worker's job, which may end after a phase with `handed-off`
   * (any worker's next job goes on from the database), or `parked` while the run's parts work. False in the embedded mode: run to an end.
   */
  readonly phased: boolean;
  /** Queue mode: the job before this one handed the run off or parked it (not a takeover after a crash). */
  readonly continued: boolean;
}

/**
 * How an execution ended. `abandoned`: the lease was lost and another process goes on.
 * `handed-off` (only when `phased`): a phase is done and the run goes on in its next job.
 * `parked` (only when `phased`): the run waits for its parts' jobs (a tree's query nodes); its job is
 * delayed, holding no worker slot, until a part wakes it, and then goes on from the database.
 */
export type RunOutcome = "completed" | "failed" | "cancelled" | "abandoned" | "handed-off" | "parked";

export interface Engine {
  readonly kind: RunKind;
  /** Runs (or resumes, from what the database holds) to an end. Failures are recorded, not thrown. */
  execute(run: RunHandle): Promise<RunOutcome>;
  /** Marks the subject cancelled for its users. False if it was not running. */
  markCancelled(subjectId: string): Promise<boolean>;
  /**
   * Tells the subject's watchers its current status. The registry calls it once a cancelled run
   * has stopped here (after the engine settled its work), or at once when it runs elsewhere.
   */
  announce(subjectId: string): Promise<void>;
  /**
   * The subject as its stream starts with it, read from the database (the caller's own only:
   * `userId` scopes it; null when it is not theirs or does not exist). `final`: it has ended, so no
   * event will follow.
   */
  snapshot(subjectId: string, userId: string | null): Promise<RunSnapshot | null>;
  /** Whether an event is the subject's last (a stream following it ends after it). */
  isFinal(event: RunEvent): boolean;
  /**
   * Tells the subject's watchers that its run is paused (waiting for the LLM provider) or going
   * again. The registry has recorded it on the run row already (`pausedOf` reads it back). An
   * engine that shows pauses on its own rows (tree research) leaves it out.
   */
  announcePause?(subjectId: string): Promise<void>;
  /**
   * True when this process spreads the engine's runs over several processes (queue mode's tree
   * nodes): no process holds a block of the run's event numbers, each event takes its number from
   * the database (lib/runs/shared-events.ts), so the registry does not open the run's topic here.
   */
  sharesEvents?(): boolean;
}

export interface RunSnapshot<D = unknown> {
  data: D;
  final: boolean;
}
