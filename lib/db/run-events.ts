// The stored log of runs' events (RunEvent): how a server process that does not run a run streams
// it without Redis (lib/events/log.ts). The owner appends in sequence order; readers take the rows
// after the last number they read. On PostgreSQL an append also NOTIFYs `quarry_run_events` with the
// run id, so readers LISTEN instead of polling often.
import pg from "pg";
import { db } from "./client";
import { executeDirect, transactionDirect } from "./direct";
import { Prisma } from "../generated/prisma/client";
import { databaseProvider } from "./database-url";
import { getEnv } from "../env";

export interface StoredRunEvent {
  runId: string;
  seq: number;
  type: string;
  data: unknown;
  at: number;
}

const CHANNEL = "quarry_run_events";

export const runEventsNotify = () => databaseProvider(getEnv().DATABASE_URL) === "postgresql";

/** Appends one run's events (already in sequence order). A number stored before is kept as it was. */
export async function appendRunEvents(runId: string, events: StoredRunEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({ runId, seq: e.seq, type: e.type, data: JSON.stringify(e.data ?? null), at: e.at }));
  // One multi-row insert per batch, each event once (a run appends every 20 ms, thousands of events
  // per research: one statement per event was a sixth of its statements), on the direct path (the
  // model API's createMany compiled a query plan per batch: ~0.3 s of a (5, 5) on PostgreSQL). In
  // chunks, within the databases' bound on a statement's parameters; one transaction over them all.
  const notify = runEventsNotify();
  const statements: Prisma.Sql[] = [];
  for (let i = 0; i < rows.length; i += APPEND_CHUNK) {
    const values = Prisma.join(rows.slice(i, i + APPEND_CHUNK).map((r) => Prisma.sql`(${r.runId}, ${r.seq}, ${r.type}, ${r.data}, ${r.at})`));
    statements.push(notify
      ? Prisma.sql`INSERT INTO "RunEvent" ("runId", "seq", "type", "data", "at") VALUES ${values} ON CONFLICT DO NOTHING`
      : Prisma.sql`INSERT OR IGNORE INTO "RunEvent" ("runId", "seq", "type", "data", "at") VALUES ${values}`);
  }
  if (notify) {
    // PostgreSQL: the listeners of every instance are told with the last insert, in the same statement
    // (a data-modifying WITH runs whether or not it is read; the notice goes out at its commit).
    statements.push(Prisma.sql`WITH "appended" AS (${statements.pop()!}) SELECT pg_notify(${CHANNEL}, ${runId})`);
  }
  if (statements.length === 1) await executeDirect(statements[0]);
  else {
    await transactionDirect(async (tx) => {
      for (const statement of statements) await tx.execute(statement);
    });
  }
}

/** Rows per INSERT on SQLite: 5 parameters each, well within its 32,766. */
const APPEND_CHUNK = 500;

/** The run's stored events numbered above `after`, in order, at most `limit`. */
export async function runEventsAfter({ runId, after, limit = 500 }: { runId: string; after: number; limit?: number }): Promise<StoredRunEvent[]> {
  const rows = await db.runEvent.findMany({ where: { runId, seq: { gt: after } }, orderBy: { seq: "asc" }, take: limit });
  return rows.map((r) => ({ runId: r.runId, seq: r.seq, type: r.type, data: JSON.parse(r.data) as unknown, at: r.at }));
}

/** The highest number stored for the run (0 when none is). */
export async function lastRunEventSeq(runId: string): Promise<number> {
  const row = await db.runEvent.findFirst({ where: { runId }, orderBy: { seq: "desc" }, select: { seq: true } });
  return row?.seq ?? 0;
}

/** Deletes stored events older than `before` of runs not going now (a new stream of an ended run starts from its final snapshot). */
export async function pruneRunEvents({ before }: { before: Date }): Promise<number> {
  const going = await db.run.findMany({ where: { status: { in: ["queued", "running"] } }, select: { id: true } });
  const { count } = await db.runEvent.deleteMany({ where: { at: { lt: before.getTime() }, runId: { notIn: going.map((r) => r.id) } } });
  return count;
}

/**
 * Calls `onRun(runId)` for every append by any process (PostgreSQL's LISTEN on its own connection,
 * reconnecting after an error). Returns the stop function.
 */
export function listenRunEvents(onRun: (runId: string) => void): () => void {
  let stopped = false;
  let client: pg.Client | undefined;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: getEnv().DATABASE_URL });
    client = c;
    c.on("notification", (n) => n.payload && onRun(n.payload));
    c.on("error", (error) => {
      console.error("[quarry] run events LISTEN connection failed:", error.message);
      void c.end().catch(() => undefined);
      if (!stopped) setTimeout(() => void connect(), 1_000).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      c.emit("error", error instanceof Error ? error : new Error(String(error)));
    }
  };
  void connect();
  return () => {
    stopped = true;
    void client?.end().catch(() => undefined);
  };
}
