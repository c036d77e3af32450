// Statement counts of the benchmark's server, from the counter preloaded into it
// (bench/tree/count-statements.cjs): the same figure on SQLite and PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const STATEMENT_COUNTER = path.join(import.meta.dirname, "count-statements.cjs");

export interface StatementCounts {
  /** Every statement sent to the database (a multi-statement exec counts once). */
  total: number;
  /** INSERT, UPDATE, DELETE (and REPLACE). */
  writes: number;
  /** SELECT, PRAGMA and anything else that is neither a write nor transaction control. */
  reads: number;
  /** BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE. */
  transactions: number;
}

/** The server's event-loop delay since the previous snapshot (ms; resolution 10 ms). */
export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

interface Snapshot extends StatementCounts {
  signals: number;
  loopDelay?: LoopDelay;
}

/** A file for one server's counters, and the node flag and environment that preload the counter. */
export function statementCounter(name: string): { file: string; nodeArgs: string[]; env: Record<string, string> } {
  const file = path.join(os.tmpdir(), `quarry-bench-statements-${name}-${process.pid}-${Date.now()}.json`);
  return { file, nodeArgs: ["--require", STATEMENT_COUNTER], env: { QUARRY_BENCH_STATEMENTS_FILE: file } };
}

function read(file: string): Snapshot | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
  } catch {
    return undefined;
  }
}

/** Asks the server (SIGUSR2) for its counters and waits for them (up to 5 s); `loopDelay` covers the time since the previous ask. */
export async function readStatements(pid: number, file: string): Promise<StatementCounts & { loopDelay?: LoopDelay }> {
  const before = read(file)?.signals ?? 0;
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 5000;
  for (;;) {
    const snap = read(file);
    if (snap && snap.signals > before) return { total: snap.total, writes: snap.writes, reads: snap.reads, transactions: snap.transactions, loopDelay: snap.loopDelay };
    if (Date.now() > deadline) throw new Error(`the server did not write its statement counts to ${file}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function statementsBetween(a: StatementCounts, b: StatementCounts): StatementCounts {
  return { total: b.total - a.total, writes: b.writes - a.writes, reads: b.reads - a.reads, transactions: b.transactions - a.transactions };
}
