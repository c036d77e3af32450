// Test support: fresh migrated databases. SQLite by default; PostgreSQL when TEST_DATABASE=postgres
// (scripts/test.mjs runs the storage and engine tests a second time that way), each test database
// created from prisma/postgres/migrations on the server of TEST_POSTGRES_URL and dropped after.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { withDatabase } from "./database-url";

const PRISMA_DIR = path.resolve(import.meta.dirname, "../../prisma");

/** The server (and maintenance database) test databases are created on. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";

export function testingOnPostgres(): boolean {
  return process.env.TEST_DATABASE === "postgres";
}

function migrationFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => path.join(dir, name, "migration.sql"))
    .filter((file) => fs.existsSync(file));
}

/** Runs one statement on TEST_POSTGRES_URL's maintenance database (CREATE / DROP DATABASE). */
export async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let counter = 0;

/**
 * A new PostgreSQL database with every migration applied (as SQL: `prisma migrate deploy` takes
 * seconds, and the drift test covers it). Names start with quarry_test_ and the process id.
 */
export async function createPostgresTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `quarry_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  await onServer(`CREATE DATABASE "${name}"`);
  const url = withDatabase(TEST_POSTGRES_URL, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const file of migrationFiles(path.join(PRISMA_DIR, "postgres", "migrations"))) await client.query(fs.readFileSync(file, "utf8"));
  } finally {
    await client.end();
  }
  // FORCE: the test's own pool may still hold connections.
  return { url, drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * A fresh migrated database and a secret, set in the environment before the modules that read them
 * are imported (so tests import those modules dynamically, after awaiting this). On PostgreSQL the
 * database is dropped when the test file ends.
 */
export async function useTestDatabase(): Promise<void> {
  process.env.AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
  if (testingOnPostgres()) {
    const { url, drop } = await createPostgresTestDatabase();
    process.env.DATABASE_URL = url;
    after(drop);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-test-"));
  const file = path.join(dir, "test.db");
  const sqlite = new Database(file);
  for (const sql of migrationFiles(path.join(PRISMA_DIR, "migrations"))) sqlite.exec(fs.readFileSync(sql, "utf8"));
  sqlite.close();
  process.env.DATABASE_URL = `file:${file}`;
}

/** Counters of the statements this process sends whose text matches a pattern (see countStatements). */
const statementCounters = new Set<{ pattern: RegExp; count: number }>();

function countStatement(sql: unknown): void {
  if (typeof sql !== "string") return;
  for (const counter of statementCounters) if (counter.pattern.test(sql)) counter.count++;
}

let statementsWrapped = false;

/** Wraps both drivers once (better-sqlite3's statements, pg's clients): every statement sent is seen by the counters. */
function wrapDrivers(): void {
  if (statementsWrapped) return;
  statementsWrapped = true;
  const probe = new Database(":memory:");
  const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const name of ["run", "get", "all", "iterate"]) {
    const original = statementProto[name];
    statementProto[name] = function (this: { source: string }, ...args: unknown[]) {
      countStatement(this.source);
      return original.apply(this, args);
    };
  }
  const clientProto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = clientProto.query;
  clientProto.query = function (this: unknown, ...args: unknown[]) {
    const [first] = args;
    countStatement(typeof first === "string" ? first : (first as { text?: unknown } | undefined)?.text);
    return query.apply(this, args);
  };
}

/**
 * Counts the statements sent from now on (on SQLite or PostgreSQL) whose text matches `pattern`, until
 * `stop()`: for tests that a path sends fewer round trips, not only the same results.
 */
export function countStatements(pattern: RegExp): { readonly count: number; stop(): void } {
  wrapDrivers();
  const counter = { pattern, count: 0 };
  statementCounters.add(counter);
  return {
    get count() {
      return counter.count;
    },
    stop: () => void statementCounters.delete(counter),
  };
}
