#!/usr/bin/env node
// npm run db:new-migration -- <name>: after an edit of prisma/schema.prisma, regenerates
// prisma/postgres/schema.prisma and writes the migration of each provider:
// prisma/migrations/000N_<name>/ (SQLite) and prisma/postgres/migrations/000M_<name>/ (PostgreSQL),
// each the difference between its replayed migrations and its schema. The PostgreSQL replay needs a
// server: MIGRATION_POSTGRES_URL, by default postgres://postgres@127.0.0.1:5432/postgres (a scratch
// database is created on it and dropped).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema, withoutHandWrittenDrops } from "./db-schema.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:new-migration -- <name>   (lower case, digits and _, e.g. add_research_tags)");
  process.exit(2);
}

fs.writeFileSync(POSTGRES_SCHEMA, postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));

/** The SQL that takes the replayed migrations of `dir` to `schema`, or "" when there is none. */
function diff(databaseUrl, dir, schema) {
  const sql = withoutHandWrittenDrops(execFileSync(
    process.execPath,
    [path.join(root, "node_modules", "prisma", "build", "index.js"), "migrate", "diff", "--from-migrations", dir, "--to-schema-datamodel", schema, "--script"],
    { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  ));
  const statements = sql.split("\n").filter((line) => line.trim() && !line.trim().startsWith("--"));
  return statements.length > 0 ? sql : "";
}

function write(dir, sql) {
  const numbers = fs.readdirSync(dir).map((f) => Number(f.match(/^(\d+)_/)?.[1] ?? 0));
  const folder = path.join(dir, `${String(Math.max(0, ...numbers) + 1).padStart(4, "0")}_${name}`);
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, "migration.sql"), sql);
  console.log(`wrote ${path.relative(root, folder)}/migration.sql`);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-migration-"));
let sqlite;
try {
  sqlite = diff(`file:${path.join(tmp, "scratch.db")}`, "prisma/migrations", SQLITE_SCHEMA);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const server = process.env.MIGRATION_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const scratch = new URL(server);
scratch.pathname = `/quarry_migration_${process.pid}`;
let postgres;
try {
  postgres = diff(scratch.toString(), "prisma/postgres/migrations", POSTGRES_SCHEMA);
} catch (error) {
  console.error(`Could not diff the PostgreSQL migrations on ${new URL(server).host} (MIGRATION_POSTGRES_URL): ${error.message}`);
  console.error("No migration was written: both providers' migrations must be added together.");
  process.exit(1);
} finally {
  const client = new pg.Client({ connectionString: server });
  await client.connect().then(
    () => client.query(`DROP DATABASE IF EXISTS "quarry_migration_${process.pid}" WITH (FORCE)`).finally(() => client.end()),
    () => {},
  );
}

if (!sqlite && !postgres) {
  console.log("prisma/schema.prisma has no change that needs a migration.");
} else {
  if (sqlite) write("prisma/migrations", sqlite);
  if (postgres) write("prisma/postgres/migrations", postgres);
  console.log("Review both files, then run `npm run db:generate` (both clients) and commit.");
}
