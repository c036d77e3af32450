// The two schemas and their migrations stay in step: prisma/postgres/schema.prisma is what the
// generator makes of prisma/schema.prisma, and each provider's migrations, replayed into a scratch
// database, give exactly its schema. The PostgreSQL half runs with TEST_DATABASE=postgres.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import pg from "pg";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema, withoutHandWrittenDrops } from "../../scripts/db-schema.mjs";
import { withDatabase } from "./database-url";
import { onServer, TEST_POSTGRES_URL, testingOnPostgres } from "./test-support";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PRISMA = path.join(ROOT, "node_modules", "prisma", "build", "index.js");

/** Runs the Prisma CLI with DATABASE_URL (which picks the schema and adapter, see prisma.config.ts). */
async function prisma(databaseUrl: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [PRISMA, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** Whether the only "missing" SQL would drop the objects the migrations write by hand (FTS5). */
function onlyHandWrittenObjects(script: string): boolean {
  const rest = withoutHandWrittenDrops(script)
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("--") && !line.startsWith("Loaded Prisma config"));
  return rest.length === 0 && /KnowledgeChunkFts|searchVector/.test(script);
}

/** `migrate diff` from the replayed migrations to the schema: what a missing migration would hold. */
async function migrationsDrift(databaseUrl: string, migrations: string, schema: string): Promise<void> {
  const args = ["migrate", "diff", "--from-migrations", migrations, "--to-schema-datamodel", schema];
  const { code, output } = await prisma(databaseUrl, [...args, "--exit-code"]);
  if (code === 0) return;
  const script = (await prisma(databaseUrl, [...args, "--script"])).output;
  if (onlyHandWrittenObjects(script)) return;
  assert.fail(`${path.relative(ROOT, migrations)} does not produce ${path.relative(ROOT, schema)} (exit ${code}); add a migration ` +
    `(npm run db:new-migration -- <name>). The missing SQL:\n${script || output}`);
}

if (!testingOnPostgres()) {
  test("prisma/postgres/schema.prisma is generated from prisma/schema.prisma (npm run db:schema)", () => {
    assert.equal(fs.readFileSync(POSTGRES_SCHEMA, "utf8"), postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  test("the SQLite migrations produce prisma/schema.prisma", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-drift-"));
    try {
      await migrationsDrift(`file:${path.join(dir, "scratch.db")}`, path.join(ROOT, "prisma", "migrations"), SQLITE_SCHEMA);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
} else {
  // The CLI replays into a shadow database of its own (prisma.config.ts); this one is only connected to.
  const scratch = `quarry_test_${process.pid}_drift`;
  const scratchUrl = withDatabase(TEST_POSTGRES_URL, scratch);
  const dropScratch = () => onServer(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);

  test("the PostgreSQL migrations produce prisma/postgres/schema.prisma", async () => {
    try {
      await migrationsDrift(scratchUrl, path.join(ROOT, "prisma", "postgres", "migrations"), POSTGRES_SCHEMA);
    } finally {
      await dropScratch();
    }
  });

  test("migrate deploy (npm start, npm run db:migrate) creates a new PostgreSQL database and migrates it", async () => {
    try {
      const deploy = await prisma(scratchUrl, ["migrate", "deploy"]);
      assert.equal(deploy.code, 0, deploy.output);
      const client = new pg.Client({ connectionString: scratchUrl });
      await client.connect();
      try {
        const applied = await client.query(`SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL ORDER BY 1`);
        const folders = fs.readdirSync(path.join(ROOT, "prisma", "postgres", "migrations")).filter((f) => /^\d/.test(f)).sort();
        assert.deepEqual(applied.rows.map((r) => r.migration_name), folders);
        assert.equal((await client.query(`SELECT count(*)::int AS n FROM "Research"`)).rows[0].n, 0);
      } finally {
        await client.end();
      }
    } finally {
      await dropScratch();
    }
  });
}
