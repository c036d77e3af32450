// A query's path does not wait for the writes that nothing on it needs yet: its `searching` status is
// written while the search goes out, its `analyzing` status and its page's fetch while the page's
// analysis goes out, and its `completed` status while its children's planning reads the chain. Each
// write is still made before anything that depends on it (the results' attach, the analysis's save,
// the children's insert), and before the node ends. A page fetch whose record fails is not kept for
// the next job in the process.
//
// On PostgreSQL a trigger holds the write under test (it waits for an advisory lock that the test
// keeps), or fails it, and the test sees what goes on meanwhile. On SQLite a write is synchronous: there is
// nothing to overlap, and these tests skip.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { countStatements, useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";
import type { PartJobs } from "../runs/part-jobs";

await useTestDatabase();
const onPostgres = process.env.TEST_DATABASE === "postgres";
const skip = onPostgres ? false : "SQLite's writes are synchronous: nothing on a query's path overlaps them";
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { SCRAPE_TIMEOUT_MS: "2000", LLM_RETRY_BUDGET_MS: "0" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { runTreeNode } = await import("./distributed");
const store = await import("../db/tree");

/** The test's own session: it holds the lock that the trigger makes the held writes wait for. */
let holder: pg.Client | undefined;
const HOLD_LOCK = 7_310_001;

before(async () => {
  if (!onPostgres) return;
  holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  // The test database is dropped at the end, this session with it.
  holder.on("error", () => {});
  await holder.connect();
  await holder.query(`
    CREATE TABLE "test_hold" ("table" text NOT NULL, "status" text NOT NULL);
    CREATE TABLE "test_fail" ("table" text NOT NULL, "status" text NOT NULL);
    CREATE FUNCTION test_hold_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW."status" IS DISTINCT FROM OLD."status" AND EXISTS (SELECT 1 FROM "test_hold" WHERE "table" = TG_TABLE_NAME AND "status" = NEW."status") THEN
        PERFORM pg_advisory_xact_lock(${HOLD_LOCK});
      END IF;
      IF NEW."status" IS DISTINCT FROM OLD."status" AND EXISTS (SELECT 1 FROM "test_fail" WHERE "table" = TG_TABLE_NAME AND "status" = NEW."status") THEN
        RAISE EXCEPTION 'the test fails this write';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_hold_query BEFORE UPDATE ON "SerpQuery" FOR EACH ROW EXECUTE FUNCTION test_hold_write();
    CREATE TRIGGER test_hold_page BEFORE UPDATE ON "Page" FOR EACH ROW EXECUTE FUNCTION test_hold_write();`);
});

after(async () => {
  await holder?.end();
  await db.$disconnect();
  await fakes.stop();
});

/** Holds the updates that move a row of `table` to one of `statuses` until `release()`. */
async function hold(holds: [table: string, status: string][]): Promise<{ release(): Promise<void> }> {
  await holder!.query(`SELECT pg_advisory_lock(${HOLD_LOCK})`);
  for (const [table, status] of holds) await holder!.query(`INSERT INTO "test_hold" VALUES ($1, $2)`, [table, status]);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await holder!.query(`DELETE FROM "test_hold"`);
      await holder!.query(`SELECT pg_advisory_unlock(${HOLD_LOCK})`);
    },
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** No other node: the children a node hands off are not run here. */
const nodes: PartJobs = { ensure: async () => new Map(), running: async () => 0 };

async function rootQuery(prompt: string, depth: number, text: string) {
  const research = await db.research.create({ data: { initialPrompt: prompt, status: "running", depth, breadth: 1 } });
  await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  const [query] = await store.createRootQueries(research.id, [{ query: text, objective: `What ${text} costs and how it is built` }], 1);
  return { research, query };
}

const statusOf = async (queryId: string) => (await db.serpQuery.findUniqueOrThrow({ where: { id: queryId } })).status;

test("the search goes out while the query's `searching` status is being written; its results are attached after it", { skip }, async () => {
  const { query } = await rootQuery("Seasonal storage", 1, "seasonal thermal energy storage pit");
  const held = await hold([["SerpQuery", "searching"]]);
  const node = runTreeNode({ researchId: query.researchId, queryId: query.id, nodes });
  try {
    await until("the search went out while the status write was held", () => fakes.search.log.some((e) => e.q === query.text));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await statusOf(query.id), "pending", "still held");
    assert.equal(await db.queryPage.count({ where: { queryId: query.id } }), 0, "the results wait for the status");
  } finally {
    await held.release();
  }
  assert.equal(await node, "done");
  assert.equal(await statusOf(query.id), "completed");
  assert.ok((await db.queryPage.count({ where: { queryId: query.id } })) > 0);
});

test("a page's analysis goes out while the page's fetch and the query's `analyzing` status are being written; its items are saved after them", { skip }, async () => {
  const { query } = await rootQuery("Aquifer storage", 1, "aquifer thermal energy storage wells");
  const held = await hold([["Page", "scraped"], ["Page", "failed"], ["SerpQuery", "analyzing"]]);
  const from = fakes.llm.log.length;
  const analyses = () => fakes.llm.log.slice(from).filter((e) => e.agent === "website-analyzer" && e.messages.some((m) => typeof m.content === "string" && m.content.includes(query.text)));
  const node = runTreeNode({ researchId: query.researchId, queryId: query.id, nodes });
  try {
    await until("an analysis went out while the writes were held", () => analyses().length > 0);
    await until("the analyses answered", () => analyses().every((e) => e.endedAt !== null));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await statusOf(query.id), "scraping", "the `analyzing` status is still held");
    const links = await db.queryPage.findMany({ where: { queryId: query.id }, include: { page: true } });
    assert.ok(links.some((l) => l.page.status === "scraping"), "a page's fetch is still being recorded");
    assert.equal(links.filter((l) => l.status === "analyzed").length, 0, "no analysis is saved before its page's fetch is recorded");
    assert.equal(await db.extractedItem.count({ where: { queryPage: { queryId: query.id } } }), 0);
  } finally {
    await held.release();
  }
  assert.equal(await node, "done");
  const links = await db.queryPage.findMany({ where: { queryId: query.id }, include: { page: true } });
  assert.ok(links.every((l) => l.status === "analyzed" || l.status === "failed"));
  assert.ok(links.every((l) => l.page.status === "scraped" || l.page.status === "failed"));
  assert.equal(await statusOf(query.id), "completed");
});

test("the children's planning reads the chain while the parent's `completed` status is being written; the children go in after it", { skip }, async () => {
  // Reads that propose no follow-ups: the Query Generator plans the children from the chain.
  fakes.llm.configure({ readFollowUps: false });
  const { query } = await rootQuery("Borehole storage", 2, "borehole thermal energy storage field");
  const held = await hold([["SerpQuery", "completed"]]);
  const chainReads = countStatements(/FROM "ExtractedItem" i JOIN "QueryPage" qp/);
  const node = runTreeNode({ researchId: query.researchId, queryId: query.id, nodes });
  try {
    await until("the chain was read while the status write was held", () => chainReads.count > 0);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await statusOf(query.id), "analyzing", "still held");
    assert.equal(await db.serpQuery.count({ where: { parentId: query.id } }), 0, "the children wait for the parent's completion");
  } finally {
    chainReads.stop();
    await held.release();
    fakes.llm.configure({ readFollowUps: true });
  }
  assert.equal(await node, "done");
  assert.equal(await statusOf(query.id), "completed");
  assert.ok((await db.serpQuery.count({ where: { parentId: query.id } })) > 0);
});

test("children chosen from the reads' follow-ups go in after the parent's `completed` status is written too", { skip }, async () => {
  const { query } = await rootQuery("Aquifer storage", 2, "aquifer thermal energy storage wells");
  const held = await hold([["SerpQuery", "completed"]]);
  const from = fakes.llm.log.length;
  const node = runTreeNode({ researchId: query.researchId, queryId: query.id, nodes });
  try {
    await until("the query's reads ended while the status write was held", () => fakes.llm.log.slice(from).some((e) => e.agent === "website-analyzer" && e.endedAt !== null));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await statusOf(query.id), "analyzing", "still held");
    assert.equal(await db.serpQuery.count({ where: { parentId: query.id } }), 0, "the children wait for the parent's completion");
  } finally {
    await held.release();
  }
  assert.equal(await node, "done");
  assert.equal(fakes.llm.log.slice(from).filter((e) => e.agent === "query-generator").length, 0, "no planning call: the reads proposed them");
  assert.equal(await db.serpQuery.count({ where: { parentId: query.id } }), 1, "ceil(1 / 2) children");
});

test("a page fetch that could not be recorded fails its analyses, and is not kept: the node's retry fetches and records it", { skip }, async () => {
  const { research, query } = await rootQuery("Tank storage", 1, "tank thermal energy storage insulation");
  await holder!.query(`INSERT INTO "test_fail" VALUES ('Page', 'scraped')`);
  try {
    await assert.rejects(runTreeNode({ researchId: query.researchId, queryId: query.id, nodes }), /the test fails this write/);
  } finally {
    await holder!.query(`DELETE FROM "test_fail"`);
  }
  assert.equal(await db.queryPage.count({ where: { queryId: query.id, status: "analyzed" } }), 0, "no analysis saved for a page whose fetch is not recorded");
  // The failed node's claims are as a dead worker's: old enough to be taken over at once.
  await db.page.updateMany({ where: { researchId: research.id }, data: { fetchedAt: new Date(0) } });
  assert.equal(await runTreeNode({ researchId: query.researchId, queryId: query.id, nodes }), "done", "the retry in the same process does not reuse the unrecorded fetch");
  const links = await db.queryPage.findMany({ where: { queryId: query.id }, include: { page: true } });
  assert.ok(links.length > 0 && links.every((l) => l.page.status === "scraped" || l.page.status === "failed"));
  assert.ok(links.some((l) => l.status === "analyzed"));
  assert.equal(await statusOf(query.id), "completed");
});
