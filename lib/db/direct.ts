// The hottest statements' path: the writes made per LLM call (token usage, a page analysis's items
// and mark, the event log on SQLite), each query's path through a tree (creation, status moves, its
// search results) and queue mode's per-job, per-page and per-poll reads. Each is handed straight to
// the driver adapter Prisma itself connected, on the same SQLite connection or PostgreSQL pool, with
// the same argument mapping. Prisma's client engine compiles a query plan in wasm on the event loop
// for every statement, raw SQL included (~0.2–0.5 ms each, a model operation more: bench/README.md);
// these are plain SQL, standard enough for both databases, and run outside any transaction exactly as
// `db.$executeRaw` / `db.$queryRaw` would, or in one of transactionDirect's. Until Prisma has
// connected its adapter, they go through those.
import { createHash } from "node:crypto";
import { ColumnTypeEnum, type ArgType, type SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import type { Prisma } from "../generated/prisma/client";
import { BoundedMap } from "../bounded-map";
import { getEnv } from "../env";
import { db } from "./client";
import { connectedAdapter } from "./create-client";

function argType(value: unknown): ArgType {
  const scalarType =
    typeof value === "string" ? "string"
    : typeof value === "number" ? (Number.isInteger(value) ? "int" : "float")
    : typeof value === "bigint" ? "bigint"
    : typeof value === "boolean" ? "boolean"
    : value instanceof Date ? "datetime"
    : "unknown";
  return { scalarType, arity: "scalar" } as ArgType;
}

/** The statement in the connected adapter's terms: its placeholders, and each value's type. */
function sqlQuery(query: Prisma.Sql, placeholders: "?" | "$n") {
  const args = query.values as unknown[];
  return { sql: placeholders === "?" ? query.sql : query.text, args: args as never, argTypes: args.map(argType) };
}

/** Runs a write (no rows back) and returns the rows it changed, as `db.$executeRaw(query)` does. */
export async function executeDirect(query: Prisma.Sql): Promise<number> {
  return directStatements().execute(query);
}

/** The statements of the adapter Prisma connected; before it has, Prisma's raw queries. */
function directStatements(): DirectTx {
  const connected = connectedAdapter(db);
  return connected ? statementsOn(connected.adapter, connected.placeholders) : rawStatements(db);
}

/** Statements through Prisma's raw queries (on the client, or in one of its transactions). */
function rawStatements(client: Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">): DirectTx {
  return {
    query: async <T extends object>(query: Prisma.Sql, types: RowTypes = {}) => (await client.$queryRaw<Record<string, unknown>[]>(query)).map((row) => convertRow(row, types) as T),
    execute: (query) => client.$executeRaw(query),
  };
}

/**
 * The columns of a row that are neither text nor numbers, converted as Prisma's model API converts
 * them (drivers return times as text and SQLite booleans as 0 or 1): named, because a driver cannot
 * always tell a column's type (SQLite's RETURNING, an expression).
 */
export interface RowTypes {
  dates?: readonly string[];
  booleans?: readonly string[];
}

type Queryable = Pick<SqlDriverAdapter, "queryRaw" | "executeRaw">;

/** How statements run on an adapter (or one of its transactions): through it, or on SQLite on its connection's prepared statements. */
function statementsOn(queryable: Queryable, placeholders: "?" | "$n"): DirectTx {
  const connection = placeholders === "?" ? sqliteConnection(queryable) : undefined;
  if (connection) {
    let statements = preparedOn.get(connection);
    if (!statements) preparedOn.set(connection, (statements = preparedStatements(connection)));
    return statements;
  }
  const on = placeholders === "$n" && getEnv().DATABASE_NAMED_STATEMENTS ? namedStatementsOn(queryable) : queryable;
  return { execute: (query) => on.executeRaw(sqlQuery(query, placeholders)), query: (query, types = {}) => readRows(on, query, placeholders, types) };
}

// PostgreSQL: the adapter sends every statement unnamed, so the server parses and plans it anew each
// time (the one-statement CTEs of a query's search results and an analysis's save most of all). The
// direct path names its hot statements: pg prepares a named statement once per connection and then
// only binds it, and the server keeps its plan. A text is named on its NAME_AT-th use (texts whose IN
// lists or VALUES rows vary in number are many, and most are used once or twice), and only the first
// MAX_NAMED texts so named (each costs a prepared statement on every pooled connection, for the
// process's life): the others go unnamed, as before. DATABASE_NAMED_STATEMENTS=0 names none (a pooler
// that does not keep a session's prepared statements).
const NAME_AT = 3;
const MAX_NAMED = 256;
const statementNames = new Map<string, string>();
/** Uses of texts not named yet, the latest 4,096 texts. */
const unnamedUses = new BoundedMap<string, { uses: number }>(4_096);

function statementName(sql: string): string | undefined {
  const name = statementNames.get(sql);
  if (name !== undefined || statementNames.size >= MAX_NAMED) return name;
  const seen = unnamedUses.getOrAdd(sql, () => ({ uses: 0 }));
  if (++seen.uses < NAME_AT) return undefined;
  const named = `quarry_${createHash("sha1").update(sql).digest("hex").slice(0, 16)}`;
  statementNames.set(sql, named);
  return named;
}

type PgQueryConfig = { text?: string };
type PgClient = { query(config: unknown, values?: unknown): Promise<unknown> };
const namedOn = new WeakMap<object, Queryable>();

/**
 * The PostgreSQL adapter (or one of its transactions) with its statements named: the adapter's own
 * argument mapping, type parsing and error conversion, on a view of its pg client (pool or
 * connection) that adds each statement's name. An adapter without a pg client is used as it is.
 */
function namedStatementsOn(queryable: Queryable): Queryable {
  const known = namedOn.get(queryable);
  if (known) return known;
  const client = (queryable as { client?: Partial<PgClient> }).client;
  let named: Queryable = queryable;
  if (typeof client?.query === "function") {
    const pg = client as PgClient;
    const namingClient: PgClient = {
      query: (config, values) => {
        const text = (config as PgQueryConfig | undefined)?.text;
        const name = typeof text === "string" ? statementName(text) : undefined;
        return pg.query(name ? { ...(config as object), name } : config, values);
      },
    };
    // The adapter's methods read `this.client`: this view's is the naming one.
    named = Object.create(queryable, { client: { value: namingClient } }) as Queryable;
  }
  namedOn.set(queryable, named);
  return named;
}

// SQLite: the adapter prepares every statement anew: 0.08 ms each, ~40% of the SQLite time of a
// (5, 5) research (bench/README.md). The direct path keeps its statements prepared on the adapter's
// own connection (better-sqlite3 runs them synchronously, so one statement is never used by two
// callers at once) and binds values as the adapter does (booleans as 0 or 1, times as ISO text with
// +00:00), so that what it stores is what Prisma stores (lib/db/direct.test.ts compares the bytes).
interface SqliteStatement {
  readonly reader: boolean;
  run(...values: unknown[]): { changes: number | bigint };
  all(...values: unknown[]): unknown[][];
  raw(on: boolean): SqliteStatement;
  columns(): { name: string }[];
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

/** The better-sqlite3 connection behind the SQLite adapter (and its transactions), where it is one. */
function sqliteConnection(queryable: Queryable): SqliteConnection | undefined {
  const client = (queryable as { client?: Partial<SqliteConnection> }).client;
  return typeof client?.prepare === "function" ? (client as SqliteConnection) : undefined;
}

/** Statements prepared once per SQL text; the latest 256 of them are kept. */
const preparedOn = new WeakMap<SqliteConnection, DirectTx>();
const sqliteValue = (value: unknown) =>
  value === undefined ? null
  : typeof value === "boolean" ? (value ? 1 : 0)
  : value instanceof Date ? value.toISOString().replace("Z", "+00:00")
  : value;

function preparedStatements(connection: SqliteConnection): DirectTx {
  const cache = new BoundedMap<string, { statement: SqliteStatement; columns: string[] }>(256);
  const prepared = (sql: string) =>
    cache.getOrAdd(sql, () => {
      const statement = connection.prepare(sql);
      return statement.reader ? { statement: statement.raw(true), columns: statement.columns().map((c) => c.name) } : { statement, columns: [] };
    });
  return {
    execute: async (query) => Number(prepared(query.sql).statement.run(...query.values.map(sqliteValue)).changes),
    query: async <T extends object>(query: Prisma.Sql, types: RowTypes = {}) => {
      const { statement, columns } = prepared(query.sql);
      const values = query.values.map(sqliteValue);
      if (!statement.reader) {
        statement.run(...values);
        return [];
      }
      return statement.all(...values).map((row) => {
        const out: Record<string, unknown> = {};
        // The adapter's connection reads integers as BigInts (safeIntegers): numbers here, as readRows gives them.
        columns.forEach((name, i) => (out[name] = typeof row[i] === "bigint" ? Number(row[i]) : row[i]));
        return convertRow(out, types) as T;
      });
    },
  };
}

async function readRows<T>(queryable: Queryable, query: Prisma.Sql, placeholders: "?" | "$n", types: RowTypes): Promise<T[]> {
  const result = await queryable.queryRaw(sqlQuery(query, placeholders));
  const integer = result.columnTypes.map((t) => t === ColumnTypeEnum.Int32 || t === ColumnTypeEnum.Int64);
  return result.rows.map((row) => {
    const out: Record<string, unknown> = {};
    result.columnNames.forEach((name, i) => {
      const value = row[i];
      out[name] = integer[i] && value !== null && value !== undefined ? Number(value) : value;
    });
    return convertRow(out, types) as T;
  });
}

function convertRow(row: Record<string, unknown>, { dates = [], booleans = [] }: RowTypes): Record<string, unknown> {
  for (const name of dates) {
    const value = row[name];
    if (value !== null && value !== undefined && !(value instanceof Date)) row[name] = new Date(value as string | number);
  }
  for (const name of booleans) {
    const value = row[name];
    if (value !== null && value !== undefined) row[name] = value === true || value === 1 || value === 1n || value === "1";
  }
  return row;
}

/**
 * Runs a read and returns its rows as objects, as `db.$queryRaw(query)` does: integers as numbers,
 * and the columns named in `types` as Dates and booleans (any other type comes back as the driver
 * returns it: read decimals and JSON through `db`).
 */
export async function queryDirect<T extends object>(query: Prisma.Sql, types: RowTypes = {}): Promise<T[]> {
  return directStatements().query<T>(query, types);
}

/** The statements of a transaction on the direct path. */
export interface DirectTx {
  query<T extends object>(query: Prisma.Sql, types?: RowTypes): Promise<T[]>;
  execute(query: Prisma.Sql): Promise<number>;
}

/**
 * Runs `work` in one transaction on the adapter Prisma connected (on SQLite it waits for Prisma's own
 * transactions, as they wait for each other; on PostgreSQL it holds a pooled connection): committed
 * when `work` resolves, rolled back when it throws. Before Prisma has connected, a `db.$transaction`.
 */
export async function transactionDirect<R>(work: (tx: DirectTx) => Promise<R>): Promise<R> {
  const connected = connectedAdapter(db);
  if (!connected) return db.$transaction((tx) => work(rawStatements(tx)));
  const { adapter, placeholders } = connected;
  const tx = await adapter.startTransaction();
  // Adapters that leave BEGIN's end to their client (no phantom query) expect COMMIT or ROLLBACK as a statement first.
  const end = async (statement: "COMMIT" | "ROLLBACK") => {
    if (!tx.options.usePhantomQuery) await tx.executeRaw({ sql: statement, args: [], argTypes: [] });
  };
  try {
    const result = await work(statementsOn(tx, placeholders));
    await end("COMMIT");
    await tx.commit();
    return result;
  } catch (error) {
    try {
      await end("ROLLBACK");
    } finally {
      await tx.rollback();
    }
    throw error;
  }
}
