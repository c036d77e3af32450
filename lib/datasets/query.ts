// The query sandbox: a dataset database opened read-only, with external access off and the
// configuration locked (a query cannot SET its way out), DuckDB's memory and thread limits, a time
// limit that interrupts the connection, and a cap on the rows kept. DuckDB's own parser decides what
// a query is (sql-guard.ts reads its parse tree): one SELECT calling nothing that reads files or shows
// the server. A result is exact or it is an error: a query stopped by the time limit, out of memory
// or cut off mid-stream is an error the agent sees, never rows with a partial count. A refused or
// failed query is a result with an error (for the agent to fix), never a throw; no error or cell
// names the server's directories. The engine runs it in a child process under an OS memory limit
// (sandbox-process.ts); tests and the bench also open it in process.
import path from "node:path";
import { DuckDBInstance, StatementType, type DuckDBConnection } from "@duckdb/node-api";
import { pathNames, scrubPaths, type PathNames } from "./paths";
import { refusalOfTree, type ParseTree } from "./sql-guard";
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

/** Characters of one text value a result keeps (the rows are stored, shown and sent to the model). */
export const MAX_CELL_CHARS = 100_000;

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0].trim();
}

/** Why an interrupted query is not a result, for the agent to act on. */
function stoppedMessage(timeoutMs: number): string {
  return `The query was stopped after the time limit of ${timeoutMs} ms (ANALYSIS_QUERY_TIMEOUT_MS); its result is incomplete and none of it is kept. Aggregate, filter or LIMIT so that it runs faster.`;
}

export class DatasetSandbox {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly limits: QueryLimits,
    private readonly paths: PathNames,
  ) {}

  static async open(dbPath: string, limits: QueryLimits): Promise<DatasetSandbox> {
    const dir = path.dirname(path.resolve(dbPath));
    const paths = pathNames([[dir, "datasets"], [path.dirname(dir), "uploads"]]);
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(dbPath, {
        access_mode: "READ_ONLY",
        autoinstall_known_extensions: "false",
        autoload_known_extensions: "false",
        allow_community_extensions: "false",
        memory_limit: `${limits.memoryLimitMb}MB`,
        threads: String(limits.threads),
      });
    } catch (error) {
      throw new Error(`The datasets' database could not be opened (${scrubPaths(firstLine(error), paths)}).`);
    }
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
    return new DatasetSandbox(instance, conn, limits, paths);
  }

  /** DuckDB's parse tree of the SQL (parsed only: nothing is bound or run). */
  private async parse(sql: string): Promise<ParseTree> {
    const reader = await this.conn.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [sql]);
    return JSON.parse(String(reader.getRows()[0][0])) as ParseTree;
  }

  async query(sql: string): Promise<QueryResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (error: string): QueryResult => ({ ok: false, error: scrubPaths(error, this.paths), durationMs: elapsed() });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.conn.interrupt();
    }, this.limits.timeoutMs);
    try {
      const refusal = refusalOfTree(await this.parse(sql), sql);
      if (refusal) return fail(refusal);
      // The second check of the kind, on the statement as bound: the parse above said SELECT.
      const extracted = await this.conn.extractStatements(sql);
      if (extracted.count !== 1) return fail(`Exactly one statement is allowed per query; this SQL has ${extracted.count}.`);
      const prepared = await extracted.prepare(0);
      if (prepared.statementType !== StatementType.SELECT) return fail(`Only SELECT statements are allowed; this one is ${StatementType[prepared.statementType]}.`);
      const result = await prepared.stream();
      const columns = result.columnNames();
      const rows: Cell[][] = [];
      let rowCount = 0;
      let tooLong = 0;
      // Every row is counted (the row count is part of the result), only the first maxRows are kept.
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        rowCount += chunk.rowCount;
        if (rows.length < this.limits.maxRows) {
          for (const row of chunk.getRows()) {
            if (rows.length >= this.limits.maxRows) break;
            rows.push(row.map((v) => {
              const cell = toCell(v);
              if (typeof cell !== "string") return cell;
              if (cell.length > MAX_CELL_CHARS) tooLong = Math.max(tooLong, cell.length);
              return scrubPaths(cell, this.paths);
            }));
          }
        }
      }
      // An interrupted stream ends like a finished one (an empty chunk): the count so far is not the
      // result's, so the query is an error, not rows.
      if (timedOut) return fail(stoppedMessage(this.limits.timeoutMs));
      // A value is kept whole or not at all: a result with one too long to keep is not shown cut.
      if (tooLong) return fail(`The result holds a text value of ${tooLong} characters, more than the ${MAX_CELL_CHARS} kept per value; select a part of it (left(x, 200)) or its length instead.`);
      return { ok: true, columns, rows, rowCount, truncated: rowCount > rows.length, durationMs: elapsed() };
    } catch (error) {
      if (timedOut) return fail(stoppedMessage(this.limits.timeoutMs));
      const message = firstLine(error);
      if (/out of memory/i.test(message)) {
        return fail(`${message.replace(/\.?$/, ".")} The query needs more memory than the sandbox allows (ANALYSIS_MEMORY_LIMIT_MB: ${this.limits.memoryLimitMb} MB), so it has no result; aggregate or filter before joining or sorting, or select shorter values.`);
      }
      return fail(message);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
