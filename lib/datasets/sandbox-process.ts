// Queries in a process of their own (a sandbox pool of one, lib/sandbox/pool.ts), under an OS limit on
// its memory, so that no query a model writes can take the web server past its budget: DuckDB's
// memory_limit bounds its buffers, but not every allocation (a 600 MB string from repeat() is made
// outside them), and the rows go through JavaScript. The child (sandbox-child.ts) runs with its data
// segment limited (DuckDB's allocations fail with "Out of Memory Error", and a process that dies of
// it is replaced) and a small V8 heap. A query whose process dies, or does not answer well after its
// time limit, is an error the agent sees; the next query starts a fresh process.
import { outcomeValue, runInSandbox, SandboxLimitError, SandboxPool } from "../sandbox/pool";
import type { QueryLimits, QueryResult } from "./query";

/** What the analysis agent's queries run on: in process (DatasetSandbox) or in a child process. */
export interface QuerySandbox {
  query(sql: string): Promise<QueryResult>;
  close(): void;
}

/** Room beyond DuckDB's memory limit for Node, the loader and the rows kept. */
export const PROCESS_HEADROOM_MB = 512;
/** How long past the time limit a query may go unanswered before its process is stopped. */
const GRACE_MS = 5_000;
const V8_HEAP_MB = 256;

export class SandboxProcess implements QuerySandbox {
  private readonly pool: SandboxPool;

  private constructor(dbPath: string, private readonly limits: QueryLimits, private readonly dataLimitMb: number) {
    this.pool = new SandboxPool({
      label: "query",
      worker: "dataset",
      size: 1,
      memoryMb: dataLimitMb,
      memorySetting: `ANALYSIS_MEMORY_LIMIT_MB plus ${PROCESS_HEADROOM_MB} MB`,
      heapMb: V8_HEAP_MB,
      // DuckDB interrupts a query at its time limit itself; the process is stopped only when it does not.
      timeoutMs: limits.timeoutMs + GRACE_MS,
      timeoutSetting: "ANALYSIS_QUERY_TIMEOUT_MS",
      init: { task: "open", input: { dbPath, limits } },
    });
  }

  /** Starts the process and opens the database in it; throws when it cannot (the task fails with why). */
  static async open(dbPath: string, limits: QueryLimits, { dataLimitMb }: { dataLimitMb?: number } = {}): Promise<SandboxProcess> {
    const sandbox = new SandboxProcess(dbPath, limits, dataLimitMb ?? limits.memoryLimitMb + PROCESS_HEADROOM_MB);
    try {
      outcomeValue(await sandbox.pool.warm());
    } catch (error) {
      sandbox.close();
      throw error;
    }
    return sandbox;
  }

  /** The process's id (tests). */
  get pid(): number | undefined {
    return this.pool.pids[0];
  }

  /** One query at a time, in order (the pool has one process). */
  async query(sql: string): Promise<QueryResult> {
    const started = performance.now();
    const failed = (error: string): QueryResult => ({ ok: false, error, durationMs: Math.round(performance.now() - started) });
    try {
      return await runInSandbox<QueryResult>(this.pool, "query", sql);
    } catch (error) {
      if (error instanceof SandboxLimitError && error.limit === "timeout") {
        return failed(`The query was stopped after the time limit of ${this.limits.timeoutMs} ms (ANALYSIS_QUERY_TIMEOUT_MS); its result is incomplete and none of it is kept. Aggregate, filter or LIMIT so that it runs faster.`);
      }
      if (error instanceof SandboxLimitError) {
        return failed(`The query ran out of memory: its process went past the sandbox's limit of ${this.dataLimitMb} MB (ANALYSIS_MEMORY_LIMIT_MB plus ${PROCESS_HEADROOM_MB} MB) and was stopped, so it has no result. Aggregate or filter so that less is held at once, or select shorter values.`);
      }
      return failed(error instanceof Error ? error.message : String(error));
    }
  }

  close(): void {
    this.pool.close();
  }
}
