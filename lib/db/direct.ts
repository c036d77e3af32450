// The hottest statements' path: the writes made per LLM call (token usage, a page analysis's items
// and mark, the event log on SQLite) and queue mode's per-page and per-poll reads. Each is handed
// straight to the driver adapter Prisma itself connected, on the same SQLite connection or PostgreSQL
// pool, with the same argument mapping. Prisma's client engine compiles a query plan in wasm on the
// event loop for every statement, raw SQL included (~0.2–0.5 ms each: bench/README.md); these are
// plain SQL, standard enough for both databases, and run outside any transaction exactly as
// `db.$executeRaw` / `db.$queryRaw` would. Until Prisma has connected its adapter, they go through those.
import { ColumnTypeEnum, type ArgType } from "@prisma/driver-adapter-utils";
import type { Prisma } from "../generated/prisma/client";
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
  const connected = connectedAdapter(db);
  if (!connected) return db.$executeRaw(query);
  return connected.adapter.executeRaw(sqlQuery(query, connected.placeholders));
}

/**
 * Runs a read and returns its rows as objects, as `db.$queryRaw(query)` does, for statements whose
 * columns are text or integers (integers come back as numbers; no other type is converted: read
 * times, booleans and decimals through `db`).
 */
export async function queryDirect<T extends object>(query: Prisma.Sql): Promise<T[]> {
  const connected = connectedAdapter(db);
  if (!connected) return db.$queryRaw<T[]>(query);
  const result = await connected.adapter.queryRaw(sqlQuery(query, connected.placeholders));
  const integer = result.columnTypes.map((t) => t === ColumnTypeEnum.Int32 || t === ColumnTypeEnum.Int64);
  return result.rows.map((row) => {
    const out: Record<string, unknown> = {};
    result.columnNames.forEach((name, i) => {
      const value = row[i];
      out[name] = integer[i] && value !== null && value !== undefined ? Number(value) : value;
    });
    return out as T;
  });
}
