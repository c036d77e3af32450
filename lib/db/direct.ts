// The hottest statements' path (several writes per LLM call: token usage, a page analysis's items
// and mark, the event log; queue mode's per-page and per-poll reads): a statement handed straight to the driver adapter that Prisma itself uses, on the same
// SQLite connection or PostgreSQL pool, with the same argument mapping. Prisma's client engine costs
// a query plan compiled in wasm on the event loop for every statement, raw SQL included (~0.2–0.5 ms
// each: bench/README.md); the statements here are plain SQL, standard enough for both databases, and
// run outside any transaction exactly as `db.$executeRaw` would. Until Prisma has connected its
// adapter, they go through `db.$executeRaw`.
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

/** Runs a write (no rows back) and returns the rows it changed, as `db.$executeRaw(query)` does. */
export async function executeDirect(query: Prisma.Sql): Promise<number> {
  const connected = connectedAdapter(db);
  if (!connected) return db.$executeRaw(query);
  const args = query.values as unknown[];
  return connected.adapter.executeRaw({
    sql: connected.placeholders === "?" ? query.sql : query.text,
    args: args as never,
    argTypes: args.map(argType),
  });
}

/**
 * Runs a read and returns its rows as objects, as `db.$queryRaw(query)` does, for statements whose
 * columns are text or integers (integers come back as numbers; no other type is converted: read
 * times, booleans and decimals through `db`).
 */
export async function queryDirect<T extends object>(query: Prisma.Sql): Promise<T[]> {
  const connected = connectedAdapter(db);
  if (!connected) return db.$queryRaw<T[]>(query);
  const args = query.values as unknown[];
  const result = await connected.adapter.queryRaw({
    sql: connected.placeholders === "?" ? query.sql : query.text,
    args: args as never,
    argTypes: args.map(argType),
  });
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
