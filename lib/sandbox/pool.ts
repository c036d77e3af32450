// Untrusted work (an uploaded document, a fetched page, a query a model wrote) runs in worker
// processes, never in the web server's: each process starts under an OS limit on its memory
// (`ulimit -d`, the data segment, which on Linux counts every private writable mapping: V8's heap,
// malloc, DuckDB's buffers) with a V8 heap a little below it, and each item has a wall-clock limit.
// A process that breaches either is killed, its item fails with an error naming the limit (the
// setting and its value), the pool starts a fresh process for the next item, and the server and every
// other item go on. One item at a time per process, so that a breach fails only the item that caused it.
// The child gets no secrets of the server's environment.
import { spawn, type ChildProcess } from "node:child_process";
import { AppError, type ErrorCode } from "../errors";
import { READY_ID, type ItemReply, type SerializedError } from "./child";
import { workerArgs, type WorkerSpec } from "./worker-file";

export interface SandboxPoolOptions {
  /** What the items are, for messages and logs: "page extraction", "document parsing". */
  label: string;
  worker: WorkerSpec;
  /** Processes at most (items beyond wait their turn). */
  size: number;
  /** The OS memory limit of each process, and the setting that sets it. */
  memoryMb: number;
  memorySetting: string;
  /** The wall-clock limit of an item once its process has it, and the setting that sets it. */
  timeoutMs: number;
  timeoutSetting: string;
  /** V8's old space in each process (default: the memory limit less room for native allocations). */
  heapMb?: number;
  /** An idle process ends after this long (0: it stays until close). */
  idleMs?: number;
  /** Sent to each new process before its first item (a database to open); its failure fails that item. */
  init?: { task: string; input: unknown };
}

/** An item stopped because its process went past a limit: `setting` names it, `value` is what it was. */
export class SandboxLimitError extends Error {
  constructor(
    readonly limit: "memory" | "timeout",
    readonly setting: string,
    readonly value: number,
    message: string,
  ) {
    super(message);
    this.name = "SandboxLimitError";
  }
}

/** The variables a child is given: none of the server's secrets (keys, database URLs, AUTH_SECRET). */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: process.env.NODE_ENV ?? "production" };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) if (process.env[name]) env[name] = process.env[name];
  return env;
}

/**
 * The young generation's semi-space (V8 grows it to 16 MB by default, kept mapped): an item's short-lived
 * objects (a page's DOM) are scavenged more often instead, for a worker's resident memory about a
 * third lower at the same CPU (bench: the (5, 5) tree's extraction worker).
 */
const SEMI_SPACE_MB = 2;
/** Room in the data limit outside V8's old space: code, young space, buffers and native allocations. */
const NATIVE_HEADROOM_MB = 96;
/** Bytes of a process's stderr kept to tell why it ended. */
const STDERR_TAIL = 4096;
const MEMORY_EXHAUSTED = /out of memory|heap limit|allocation failed|cannot allocate|bad_alloc|ENOMEM/i;

/**
 * How an item ended, as data. The pools live on globalThis (one per process), and the Next build may
 * hold several copies of this module (the instrumentation's, each route's), so the pool settles with
 * data and `runInSandbox`, from the caller's own copy, throws the errors: an AppError or a
 * SandboxLimitError the caller's `instanceof` recognises.
 */
export type ItemOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: SerializedError }
  | { ok: false; limit: { kind: "memory" | "timeout"; setting: string; value: number; message: string } };

interface Item {
  task: string;
  input: unknown;
  settle: (outcome: ItemOutcome) => void;
  timeoutMs: number;
}

const failure = (message: string): ItemOutcome => ({ ok: false, error: { message, name: "Error" } });

/** One worker process: starting, idle, or busy with one item. */
class Slot {
  readonly proc: ChildProcess;
  readonly ready: Promise<void>;
  private next = READY_ID + 1;
  private waiting: { id: number; resolve: (reply: ItemReply) => void; reject: (error: Error) => void } | null = null;
  private stderrTail = "";
  exited = false;
  timedOut = false;
  busy = true;
  idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SandboxPoolOptions, onExit: (slot: Slot) => void) {
    const heapMb = options.heapMb ?? Math.max(32, options.memoryMb - NATIVE_HEADROOM_MB);
    const args = [`--max-old-space-size=${heapMb}`, `--max-semi-space-size=${SEMI_SPACE_MB}`, ...workerArgs(options.worker)];
    const stdio: ["ignore", "inherit", "pipe", "ipc"] = ["ignore", "inherit", "pipe", "ipc"];
    const spawnOptions = { stdio, env: childEnv(), serialization: "advanced" as const };
    this.proc =
      process.platform === "win32"
        ? spawn(process.execPath, args, spawnOptions)
        : spawn("/bin/sh", ["-c", 'ulimit -d "$0" && exec "$@"', String(options.memoryMb * 1024), process.execPath, ...args], spawnOptions);
    this.proc.stderr?.setEncoding("utf8");
    this.proc.stderr?.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
      for (const line of chunk.split("\n")) if (line.trim()) console.error(`[quarry] ${options.label} worker ${this.proc.pid}: ${line}`);
    });
    this.ready = new Promise((resolve, reject) => {
      this.waiting = { id: READY_ID, resolve: () => resolve(), reject };
    });
    this.ready.catch(() => {});
    this.proc.on("message", (reply: ItemReply) => {
      if (this.waiting?.id !== reply.id) return;
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve(reply);
    });
    const ended = (error: Error) => {
      if (this.exited) return;
      this.exited = true;
      clearTimeout(this.idleTimer);
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.reject(error);
      onExit(this);
    };
    this.proc.on("exit", (code, signal) => ended(new Error(this.exitReason(code, signal))));
    this.proc.on("error", ended);
  }

  private exitReason(code: number | null, signal: string | null): string {
    const how = signal ?? `exit code ${code}`;
    const { memoryMb, memorySetting, label } = this.options;
    if (MEMORY_EXHAUSTED.test(this.stderrTail)) return `its ${label} process went past its memory limit of ${memoryMb} MB (${memorySetting}) and was stopped (${how})`;
    return `its ${label} process ended (${how}), most likely past its memory limit of ${memoryMb} MB (${memorySetting})`;
  }

  /** Sends one item and waits for its reply; rejects when the process ends first. */
  request(task: string, input: unknown): Promise<ItemReply> {
    const id = this.next++;
    return new Promise<ItemReply>((resolve, reject) => {
      this.waiting = { id, resolve, reject };
      this.proc.send({ id, task, input }, (error) => error && !this.exited && this.kill());
    });
  }

  kill(): void {
    if (!this.exited) this.proc.kill("SIGKILL");
  }

  /** An idle process does not keep the server's (or a CLI's) event loop alive; a busy one does. */
  hold(held: boolean): void {
    const handles = [this.proc, this.proc.channel, this.proc.stderr as unknown as { ref(): void; unref(): void } | null];
    for (const handle of handles) {
      if (held) handle?.ref();
      else handle?.unref();
    }
  }
}

/** The item's value, or its error thrown with this copy of the error classes. */
export function outcomeValue<T>(outcome: ItemOutcome): T {
  if (outcome.ok) return outcome.value as T;
  if ("limit" in outcome) {
    const { kind, setting, value, message } = outcome.limit;
    throw new SandboxLimitError(kind, setting, value, message);
  }
  const { error } = outcome;
  if (error.code) throw new AppError(error.code as ErrorCode, error.message, { field: error.field });
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  throw rebuilt;
}

/**
 * Runs one item in one of the pool's worker processes: its value, the handler's error as it was
 * thrown (an AppError keeps its code and field), or a SandboxLimitError when its process went past a
 * limit. A `signal` stops the wait (and takes a queued item out of the queue); an item its process
 * has already started runs to its end there, within the limits, so that the process is not lost.
 */
export async function runInSandbox<T>(pool: SandboxPool, task: string, input: unknown, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<T> {
  return outcomeValue<T>(await pool.submit(task, input, options));
}

export class SandboxPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Item[] = [];
  private closed = false;

  constructor(readonly options: SandboxPoolOptions) {}

  /** Processes running now (tests and logs). */
  get pids(): number[] {
    return [...this.slots].flatMap((s) => (s.exited || s.proc.pid === undefined ? [] : [s.proc.pid]));
  }

  /** One item's outcome (see runInSandbox); rejects only with the signal's reason. */
  submit(task: string, input: unknown, { signal, timeoutMs }: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ItemOutcome> {
    if (this.closed) return Promise.resolve(this.closedOutcome());
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<ItemOutcome>((resolve, reject) => {
      const item: Item = { task, input, settle: resolve, timeoutMs: timeoutMs ?? this.options.timeoutMs };
      if (signal) {
        const abort = () => {
          const queued = this.queue.indexOf(item);
          if (queued >= 0) this.queue.splice(queued, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", abort, { once: true });
        item.settle = (outcome) => {
          signal.removeEventListener("abort", abort);
          resolve(outcome);
        };
      }
      this.queue.push(item);
      this.dispatch();
    });
  }

  /** Starts a process (and its init) ahead of the first item, so that it does not wait for the start: ok, or why not. */
  async warm(): Promise<ItemOutcome> {
    if (this.closed || this.slots.size > 0) return { ok: true, value: undefined };
    const slot = this.start();
    try {
      return (await this.prepare(slot)) ?? { ok: true, value: undefined };
    } finally {
      this.release(slot);
    }
  }

  private closedOutcome(): ItemOutcome {
    return failure(`The ${this.options.label} workers are closed.`);
  }

  /** Ends every process; queued items fail. */
  close(): void {
    this.closed = true;
    for (const item of this.queue.splice(0)) item.settle(this.closedOutcome());
    for (const slot of this.slots) slot.kill();
    this.slots.clear();
  }

  private start(): Slot {
    const slot = new Slot(this.options, (ended) => {
      this.slots.delete(ended);
      this.dispatch();
    });
    this.slots.add(slot);
    return slot;
  }

  /** Waits for a new process and runs its init: undefined when ready, else the failure. */
  private async prepare(slot: Slot): Promise<ItemOutcome | undefined> {
    try {
      await slot.ready;
      const init = this.options.init;
      if (!init) return undefined;
      const reply = await slot.request(init.task, init.input);
      if (reply.ok) return undefined;
      slot.kill();
      return { ok: false, error: reply.error };
    } catch (error) {
      slot.kill();
      return failure(`The ${this.options.label} worker could not start (${error instanceof Error ? error.message : String(error)}).`);
    }
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = [...this.slots].find((s) => !s.busy && !s.exited);
      if (!slot) {
        if (this.slots.size >= this.options.size) return;
        slot = this.start();
        // A new slot is busy until ready: the item is sent once it is.
        void this.runOn(slot, this.queue.shift()!, true);
        continue;
      }
      slot.busy = true;
      slot.hold(true);
      clearTimeout(slot.idleTimer);
      void this.runOn(slot, this.queue.shift()!, false);
    }
  }

  private async runOn(slot: Slot, item: Item, fresh: boolean): Promise<void> {
    const failed = fresh ? await this.prepare(slot) : undefined;
    if (failed) {
      item.settle(failed);
      return;
    }
    const { timeoutMs } = item;
    const timer = setTimeout(() => {
      slot.timedOut = true;
      slot.kill();
    }, timeoutMs);
    try {
      const reply = await slot.request(item.task, item.input);
      const { label, memoryMb, memorySetting } = this.options;
      if (reply.ok) item.settle({ ok: true, value: reply.value });
      else if (!reply.error.code && MEMORY_EXHAUSTED.test(reply.error.message)) {
        // An allocation refused under the limit (a buffer, a string) is thrown where it happened; the
        // process may be left short of memory, so it is replaced.
        slot.kill();
        item.settle({ ok: false, limit: { kind: "memory", setting: memorySetting, value: memoryMb, message: `The ${label} failed: it went past its process's memory limit of ${memoryMb} MB (${memorySetting}) (${reply.error.message}).` } });
      } else item.settle({ ok: false, error: reply.error });
    } catch (error) {
      const { label, timeoutSetting, memoryMb, memorySetting } = this.options;
      item.settle(
        this.closed
          ? this.closedOutcome()
          : slot.timedOut
            ? { ok: false, limit: { kind: "timeout", setting: timeoutSetting, value: timeoutMs, message: `The ${label} was stopped after its time limit of ${timeoutMs} ms (${timeoutSetting}).` } }
            : { ok: false, limit: { kind: "memory", setting: memorySetting, value: memoryMb, message: `The ${label} failed: ${error instanceof Error ? error.message : String(error)}.` } },
      );
    } finally {
      clearTimeout(timer);
      this.release(slot);
    }
  }

  /** The slot's item is done: it takes the next, or waits (and ends after idleMs). */
  private release(slot: Slot): void {
    if (slot.exited) return;
    if (this.closed) return slot.kill();
    slot.busy = false;
    slot.hold(false);
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs > 0) {
      slot.idleTimer = setTimeout(() => slot.kill(), idleMs);
      slot.idleTimer.unref();
    }
    this.dispatch();
  }
}
