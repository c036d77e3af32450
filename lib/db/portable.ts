// Query pieces that must behave the same on SQLite and PostgreSQL, where Prisma's do not.
import { getEnv } from "../env";
import { databaseProvider } from "./database-url";

/**
 * A `contains` filter that ignores case on both databases. SQLite's LIKE (what Prisma's `contains`
 * becomes there) ignores ASCII case already and has no `mode`; PostgreSQL's is case-sensitive unless
 * `mode: "insensitive"` (ILIKE). Typed as the app's (SQLite) client's filter; see lib/db/create-client.ts.
 */
export function containsIgnoringCase(text: string): { contains: string } {
  if (databaseProvider(getEnv().DATABASE_URL) === "postgresql") {
    return { contains: text, mode: "insensitive" } as { contains: string };
  }
  return { contains: text };
}

/**
 * For a `createMany` that may race another transaction inserting the same unique key: on PostgreSQL
 * (READ COMMITTED) two transactions can both see the key missing, and the second insert would fail;
 * `skipDuplicates` (ON CONFLICT DO NOTHING) lets it wait for the first and skip. SQLite runs one write
 * transaction at a time, so the race cannot happen there, and its createMany has no such option.
 */
export function skipDuplicatesOnPostgres(): object {
  return databaseProvider(getEnv().DATABASE_URL) === "postgresql" ? { skipDuplicates: true } : {};
}
