// The query sandbox: a dataset database opened read-only, with external access off and the
// configuration locked (a query cannot SET its way out), DuckDB's memory and thread limits, a time
// limit that interrupts the connection, and a cap on the rows kept. A query passes sql-guard.ts, then
// DuckDB's own parser must find exactly one statement, of type SELECT. A refused or failed query is a
// result with an error (for the agent to fix), never a throw.
import { DuckDBInstance, StatementType, type DuckDBConnection } from "@duckdb/node-api";
import { refusalOf } from "./sql-guard";
import { toCell, type Cell } from "./values";

export interface QueryLimits {
  timeoutMs: number;
  maxRows: number;
  memoryLimitMb: number;
  threads: number;
}

export type QueryResult =
  | { ok: true; columns: string[]; rows: Cell[][]; rowCount: number; truncated: boolean; durationMs: number }
  | { ok: false; error: string; durationMs: number };

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0].trim();
}

export class DatasetSandbox {
  private constructor(private readonly instance: DuckDBInstance, private readonly conn: DuckDBConnection, private readonly limits: QueryLimits) {}

  static async open(dbPath: string, limits: QueryLimits): Promise<DatasetSandbox> {
    const instance = await DuckDBInstance.create(dbPath, {
      access_mode: "READ_ONLY",
      autoinstall_known_extensions: "false",
      autoload_known_extensions: "false",
      allow_community_extensions: "false",
      memory_limit: `${limits.memoryLimitMb}MB`,
      threads: String(limits.threads),
    });
    const conn = await instance.connect();
    // Set here rather than at open: DuckDB refuses a temp_directory once external access is off, so
    // the order matters. No temporary directory means no spilling: past the memory limit a query
    // fails instead of writing files. lock_configuration comes last: nothing, no query either, can
    // change a setting after it.
    try {
      for (const setting of ["SET temp_directory = ''", "SET enable_external_access = false", "SET lock_configuration = true"]) await conn.run(setting);
    } catch (error) {
      // Never hand out a connection that is not locked down.
      conn.closeSync();
      instance.closeSync();
      throw error;
    }
    return new DatasetSandbox(instance, conn, limits);
  }

  async query(sql: string): Promise<QueryResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const refusal = refusalOf(sql);
    if (refusal) return { ok: false, error: refusal, durationMs: elapsed() };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.conn.interrupt();
    }, this.limits.timeoutMs);
    try {
      const extracted = await this.conn.extractStatements(sql);
      if (extracted.count !== 1) return { ok: false, error: `Exactly one statement is allowed per query; this SQL has ${extracted.count}.`, durationMs: elapsed() };
      const prepared = await extracted.prepare(0);
      if (prepared.statementType !== StatementType.SELECT) {
        return { ok: false, error: `Only SELECT statements are allowed; this one is ${StatementType[prepared.statementType]}.`, durationMs: elapsed() };
      }
      const result = await prepared.stream();
      const columns = result.columnNames();
      const rows: Cell[][] = [];
      let rowCount = 0;
      // Every row is counted (the row count is part of the result), only the first maxRows are kept.
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        rowCount += chunk.rowCount;
        if (rows.length < this.limits.maxRows) {
          for (const row of chunk.getRows()) {
            if (rows.length >= this.limits.maxRows) break;
            rows.push(row.map(toCell));
          }
        }
      }
      return { ok: true, columns, rows, rowCount, truncated: rowCount > rows.length, durationMs: elapsed() };
    } catch (error) {
      if (timedOut) {
        return { ok: false, error: `The query was stopped after the time limit of ${this.limits.timeoutMs} ms (ANALYSIS_QUERY_TIMEOUT_MS); aggregate or filter so that it runs faster.`, durationMs: elapsed() };
      }
      return { ok: false, error: firstLine(error), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
