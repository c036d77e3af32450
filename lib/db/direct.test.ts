// The direct write path (lib/db/direct.ts) against a real database: SQLite, or PostgreSQL with
// TEST_DATABASE=postgres. What it writes must be what Prisma would have written, byte for byte.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "./test-support";

await useTestDatabase();
const { db } = await import("./client");
const { connectedAdapter } = await import("./create-client");
const { executeDirect, queryDirect } = await import("./direct");
const { Prisma } = await import("../generated/prisma/client");

test("a write goes to the adapter Prisma connected, stores what Prisma's $executeRaw stores, and counts its rows", async () => {
  const [a, b] = await Promise.all([1, 2].map(() => db.research.create({ data: { initialPrompt: "p", status: "running" } })));
  assert.ok(connectedAdapter(db), "Prisma has connected its adapter");
  const at = new Date(Date.UTC(2026, 10, 26, 7, 1, 2, 345));
  const write = (id: string) => Prisma.sql`
    UPDATE "Research" SET "promptTokens" = "promptTokens" + ${1200}, "llmCalls" = "llmCalls" + ${1}, "report" = ${"a report, 'quoted'"},
      "error" = ${null}, "completedAt" = ${at}, "startedAt" = ${at} WHERE "id" = ${id}`;
  assert.equal(await db.$executeRaw(write(a.id)), 1);
  assert.equal(await executeDirect(write(b.id)), 1);
  assert.equal(await executeDirect(write("no-such-research")), 0);

  const [viaPrisma, viaDirect] = await Promise.all([a.id, b.id].map((id) => db.research.findUniqueOrThrow({ where: { id } })));
  for (const row of [viaPrisma, viaDirect]) {
    assert.equal(row.promptTokens, 1200);
    assert.equal(row.llmCalls, 1);
    assert.equal(row.report, "a report, 'quoted'");
    assert.equal(row.error, null);
    assert.equal(row.completedAt?.getTime(), at.getTime());
  }
  // The stored text of the time is the same (SQLite compares times as text).
  const stored = await db.$queryRaw<{ id: string; t: string }[]>`SELECT "id", CAST("completedAt" AS TEXT) AS "t" FROM "Research" WHERE "id" IN (${a.id}, ${b.id})`;
  assert.equal(stored.length, 2);
  assert.equal(stored[0].t, stored[1].t);
  // A range query over it finds both.
  assert.equal(await db.research.count({ where: { id: { in: [a.id, b.id] }, completedAt: { gte: new Date(at.getTime() - 1), lte: at } } }), 2);
});

test("a failed statement throws", async () => {
  await assert.rejects(executeDirect(Prisma.sql`UPDATE "NoSuchTable" SET "x" = ${1}`));
});

test("a read returns what $queryRaw returns for text and integer columns (integers as numbers, NULL as null), and RETURNING rows", async () => {
  const research = await db.research.create({ data: { initialPrompt: "it's a prompt", status: "running", promptTokens: 7 } });
  const read = Prisma.sql`
    SELECT "id", "initialPrompt", "report", "promptTokens", COUNT(*) OVER () AS "n", 1 AS "one"
    FROM "Research" WHERE "id" = ${research.id} AND "status" IN (${Prisma.join(["running", "paused"])}) AND "rootQueriesGenerated" = ${false}`;
  const rows = await queryDirect<Record<string, unknown>>(read);
  assert.deepEqual(rows, [{ id: research.id, initialPrompt: "it's a prompt", report: null, promptTokens: 7, n: 1, one: 1 }]);
  const viaPrisma = (await db.$queryRaw<Record<string, unknown>[]>(read)).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])));
  assert.deepEqual(rows, viaPrisma);
  assert.deepEqual(await queryDirect(Prisma.sql`SELECT "id" FROM "Research" WHERE "id" = ${"no-such-research"}`), []);
  const returned = await queryDirect<{ promptTokens: number }>(Prisma.sql`UPDATE "Research" SET "promptTokens" = "promptTokens" + ${5} WHERE "id" = ${research.id} RETURNING "promptTokens"`);
  assert.deepEqual(returned, [{ promptTokens: 12 }]);
});

test("a transaction commits what its work wrote, and rolls all of it back when the work throws", async () => {
  const { transactionDirect } = await import("./direct");
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const bump = Prisma.sql`UPDATE "Research" SET "promptTokens" = "promptTokens" + ${1} WHERE "id" = ${research.id}`;
  const result = await transactionDirect(async (tx) => {
    await tx.execute(bump);
    return tx.query<{ promptTokens: number }>(Prisma.sql`SELECT "promptTokens" FROM "Research" WHERE "id" = ${research.id}`);
  });
  assert.deepEqual(result, [{ promptTokens: 1 }]);
  await assert.rejects(
    transactionDirect(async (tx) => {
      await tx.execute(bump);
      throw new Error("the work failed");
    }),
    /the work failed/,
  );
  assert.equal((await db.research.findUniqueOrThrow({ where: { id: research.id } })).promptTokens, 1);
  // The connection is usable after both (on PostgreSQL, the pooled one went back).
  await Promise.all([1, 2, 3].map(() => transactionDirect((tx) => tx.execute(bump))));
  assert.equal((await db.research.findUniqueOrThrow({ where: { id: research.id } })).promptTokens, 4);
});

test("a read converts the named time and boolean columns as Prisma's model API reads them", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running", startedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)) } });
  const [row] = await queryDirect<Record<string, unknown>>(Prisma.sql`SELECT "id", "startedAt", "completedAt", "rootQueriesGenerated" FROM "Research" WHERE "id" = ${research.id}`, {
    dates: ["startedAt", "completedAt"],
    booleans: ["rootQueriesGenerated"],
  });
  assert.deepEqual(row, { id: research.id, startedAt: research.startedAt, completedAt: null, rootQueriesGenerated: false });
});

test("on SQLite a statement is prepared once and run again with new values", { skip: process.env.TEST_DATABASE === "postgres" }, async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const connection = (connectedAdapter(db)!.adapter as unknown as { client: { prepare(sql: string): unknown } }).client;
  const prepare = connection.prepare;
  let prepared = 0;
  connection.prepare = function (this: unknown, sql: string) {
    prepared++;
    return prepare.call(this, sql);
  };
  try {
    const sql = (n: number) => Prisma.sql`UPDATE "Research" SET "llmCalls" = "llmCalls" + ${n} WHERE "id" = ${research.id} AND "status" = ${"running"} AND "rootQueriesGenerated" = ${false} AND "createdAt" < ${new Date(Date.now() + 60_000)}`;
    for (const n of [1, 2, 3]) assert.equal(await executeDirect(sql(n)), 1);
    assert.deepEqual(await queryDirect(Prisma.sql`SELECT "llmCalls" FROM "Research" WHERE "id" = ${research.id}`), [{ llmCalls: 6 }]);
    assert.deepEqual(await queryDirect(Prisma.sql`SELECT "llmCalls" FROM "Research" WHERE "id" = ${research.id}`), [{ llmCalls: 6 }]);
    assert.equal(prepared, 2, "one preparation per statement text");
  } finally {
    connection.prepare = prepare;
  }
});

test("on PostgreSQL a statement is named: prepared once on its connection, then only bound, with the same results", { skip: process.env.TEST_DATABASE !== "postgres" }, async () => {
  const { transactionDirect } = await import("./direct");
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const update = (n: number) => Prisma.sql`UPDATE "Research" SET "llmCalls" = "llmCalls" + ${n}, "startedAt" = ${new Date(Date.UTC(2026, 11, 2, 14, 0, n))} WHERE "id" = ${research.id} AND "status" = ${"running"}`;
  const read = Prisma.sql`SELECT "llmCalls", "startedAt" FROM "Research" WHERE "id" = ${research.id}`;
  const prepared = await transactionDirect(async (tx) => {
    // Its first two runs go unnamed (a text used once or twice is not worth a prepared statement).
    for (const n of [1, 2, 3]) assert.equal(await tx.execute(update(n)), 1);
    for (let i = 0; i < 4; i++) assert.deepEqual(await tx.query(read, { dates: ["startedAt"] }), [{ llmCalls: 6, startedAt: new Date(Date.UTC(2026, 11, 2, 14, 0, 3)) }]);
    // The session's prepared statements (one connection: the transaction's).
    return tx.query<{ statement: string }>(Prisma.sql`SELECT "statement" FROM pg_prepared_statements WHERE "name" LIKE 'quarry_%'`);
  });
  const texts = prepared.map((p) => p.statement);
  assert.equal(texts.filter((t) => t.startsWith(`UPDATE "Research" SET "llmCalls"`)).length, 1, "the update was prepared once, on its third run");
  assert.equal(texts.filter((t) => t.startsWith(`SELECT "llmCalls"`)).length, 1);
  // Outside a transaction too (the pool's connections), and Prisma's own reads see what it wrote.
  assert.equal(await executeDirect(update(4)), 1);
  assert.equal((await db.research.findUniqueOrThrow({ where: { id: research.id } })).llmCalls, 10);
  // A failing named statement throws as an unnamed one does, and the next runs.
  await assert.rejects(executeDirect(Prisma.sql`UPDATE "Research" SET "llmCalls" = ${"not a number"} WHERE "id" = ${research.id}`));
  assert.equal(await executeDirect(update(5)), 1);

  // DATABASE_NAMED_STATEMENTS=0 (a pooler that cannot keep them): nothing is named.
  const { resetEnvCache } = await import("../env");
  process.env.DATABASE_NAMED_STATEMENTS = "0";
  resetEnvCache();
  try {
    const unnamed = await transactionDirect(async (tx) => {
      // More runs than naming takes.
      for (let i = 0; i < 4; i++) assert.equal(await tx.execute(Prisma.sql`UPDATE "Research" SET "completionTokens" = "completionTokens" + ${6} WHERE "id" = ${research.id} AND "llmCalls" > ${0}`), 1);
      return tx.query<{ n: number }>(Prisma.sql`SELECT CAST(COUNT(*) AS INTEGER) AS "n" FROM pg_prepared_statements WHERE "statement" LIKE ${'UPDATE "Research" SET "completionTokens"%'}`);
    });
    assert.deepEqual(unnamed, [{ n: 0 }], "a statement run with the option off is not prepared on the session");
  } finally {
    delete process.env.DATABASE_NAMED_STATEMENTS;
    resetEnvCache();
  }
});
