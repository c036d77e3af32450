// Queries in a process of their own, under an OS limit on its memory, so that no query a model
// writes can take the web server past its budget: DuckDB's memory_limit bounds its buffers, but not
// every allocation (a 600 MB string from repeat() is made outside them), and the rows go through
// JavaScript. The child (sandbox-child.ts) runs with its data segment limited (ulimit -d: DuckDB's
// allocations fail with "Out of Memory Error", and a process that dies of it is replaced) and a small
// V8 heap. A query whose process dies, or does not answer well after its time limit, is an error the
// agent sees; the next query starts a fresh process.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { ChildMessage, ChildReply } from "./sandbox-child";
import type { QueryLimits, QueryResult } from "./query";

/** What the analysis agent's queries run on: in process (DatasetSandbox) or in a child process. */
export interface QuerySandbox {
  query(sql: string): Promise<QueryResult>;
  close(): void;
}

// Resolved from the project's directory, not from this module: in the Next build this module is a chunk.
const WORKER = path.join(process.cwd(), "lib", "datasets", "sandbox-worker.mjs");
/** Room beyond DuckDB's memory limit for Node, the loader and the rows kept. */
export const PROCESS_HEADROOM_MB = 512;
/** How long past the time limit a query may go unanswered before its process is stopped. */
const GRACE_MS = 5_000;
const V8_HEAP_MB = 256;

class ProcessExit extends Error {
  constructor(readonly code: number | null, readonly signal: string | null) {
    super(`the query process ended (${signal ?? `code ${code}`})`);
  }
}

/** One child process and its requests in flight. */
class Child {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (reply: ChildReply) => void; reject: (error: Error) => void }>();
  readonly ready: Promise<void>;

  constructor(readonly proc: ChildProcess) {
    this.ready = new Promise((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
    proc.on("message", (reply: ChildReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
    const fail = (error: Error) => {
      for (const w of this.pending.values()) w.reject(error);
      this.pending.clear();
    };
    proc.on("exit", (code, signal) => fail(new ProcessExit(code, signal)));
    proc.on("error", fail);
  }

  async request(request: ChildMessage): Promise<unknown> {
    const id = this.next++;
    const reply = await new Promise<ChildReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.proc.send({ ...request, id }, (error) => error && reject(error));
    });
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  }
}

function startChild(dataLimitMb: number): Child {
  const args = [`--max-old-space-size=${V8_HEAP_MB}`, WORKER];
  // The child needs no secrets of the server's environment.
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: process.env.TMPDIR ?? "", NODE_ENV: process.env.NODE_ENV ?? "production" };
  const stdio: ["ignore", "inherit", "inherit", "ipc"] = ["ignore", "inherit", "inherit", "ipc"];
  const proc = process.platform === "win32"
    ? spawn(process.execPath, args, { stdio, env })
    : spawn("/bin/sh", ["-c", 'ulimit -d "$0" && exec "$@"', String(dataLimitMb * 1024), process.execPath, ...args], { stdio, env });
  return new Child(proc);
}

export class SandboxProcess implements QuerySandbox {
  private child: Child | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly dataLimitMb: number;

  private constructor(private readonly dbPath: string, private readonly limits: QueryLimits, dataLimitMb?: number) {
    this.dataLimitMb = dataLimitMb ?? limits.memoryLimitMb + PROCESS_HEADROOM_MB;
  }

  /** Starts the process and opens the database in it; throws when it cannot (the task fails with why). */
  static async open(dbPath: string, limits: QueryLimits, { dataLimitMb }: { dataLimitMb?: number } = {}): Promise<SandboxProcess> {
    const sandbox = new SandboxProcess(dbPath, limits, dataLimitMb);
    sandbox.child = await sandbox.start();
    return sandbox;
  }

  private async start(): Promise<Child> {
    const child = startChild(this.dataLimitMb);
    try {
      await child.ready;
      await child.request({ type: "open", dbPath: this.dbPath, limits: this.limits });
      return child;
    } catch (error) {
      child.proc.kill("SIGKILL");
      throw error instanceof ProcessExit ? new Error(`The query sandbox's process could not start (${error.message}).`) : error;
    }
  }

  /** One query at a time, in order. */
  query(sql: string): Promise<QueryResult> {
    const run = this.chain.then(() => this.run(sql));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async run(sql: string): Promise<QueryResult> {
    const started = performance.now();
    const failed = (error: string): QueryResult => ({ ok: false, error, durationMs: Math.round(performance.now() - started) });
    if (this.closed) return failed("The query sandbox is closed.");
    let child: Child;
    try {
      child = this.child ??= await this.start();
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    let overdue = false;
    const backstop = setTimeout(() => {
      overdue = true;
      child.proc.kill("SIGKILL");
    }, this.limits.timeoutMs + GRACE_MS);
    try {
      return (await child.request({ type: "query", sql })) as QueryResult;
    } catch (error) {
      if (this.child === child) this.child = null;
      child.proc.kill("SIGKILL");
      if (overdue) return failed(`The query was stopped after the time limit of ${this.limits.timeoutMs} ms (ANALYSIS_QUERY_TIMEOUT_MS); its result is incomplete and none of it is kept. Aggregate, filter or LIMIT so that it runs faster.`);
      if (error instanceof ProcessExit) {
        return failed(`The query ran out of memory: its process went past the sandbox's limit of ${this.dataLimitMb} MB (ANALYSIS_MEMORY_LIMIT_MB plus ${PROCESS_HEADROOM_MB} MB) and was stopped, so it has no result. Aggregate or filter so that less is held at once, or select shorter values.`);
      }
      return failed(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(backstop);
    }
  }

  close(): void {
    this.closed = true;
    this.child?.proc.kill("SIGKILL");
    this.child = null;
  }
}
