// The runner's per-page writes against a real (migrated, temporary) database: SQLite, or PostgreSQL
// with TEST_DATABASE=postgres.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import pg from "pg";
import { countStatements, testingOnPostgres, useTestDatabase } from "./test-support";

await useTestDatabase();
// The store reads DATABASE_URL when it is first imported.
const { db } = await import("./client");
const store = await import("./tree");
const { getRun } = await import("./runs");

let researchId = "";
let queryPageId = "";
before(async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const query = await db.serpQuery.create({ data: { researchId: research.id, depth: 1, position: 0, text: "q", objective: "o", levelBreadth: 1 } });
  const { rows } = await store.attachSearchResults(query, [
    { url: "https://a.example/1", title: "One", snippet: "" },
    { url: "https://a.example/1", title: "One again", snippet: "" },
    { url: "https://b.example/2", title: "Two", snippet: "" },
  ]);
  researchId = research.id;
  queryPageId = rows[0].id;
});

test("search results attach once per URL, in order, and move the query to scraping", async () => {
  const rows = await db.queryPage.findMany({ where: { query: { researchId } }, include: { page: true }, orderBy: { position: "asc" } });
  assert.deepEqual(rows.map((r) => r.page.url), ["https://a.example/1", "https://b.example/2"]);
  assert.equal(rows[0].page.title, "One");
  assert.equal((await db.serpQuery.findFirstOrThrow({ where: { researchId } })).status, "scraping");
});

test("an analysis saves its items and marks the row; a second save of the same row changes nothing", async () => {
  assert.equal(await store.saveAnalysis(queryPageId, researchId, "https://a.example/1", ["fact 1", "fact 2"]), true);
  assert.equal(await store.saveAnalysis(queryPageId, researchId, "https://a.example/1", ["other"]), false);
  const row = await db.queryPage.findUniqueOrThrow({ where: { id: queryPageId }, include: { items: { orderBy: { position: "asc" } } } });
  assert.equal(row.status, "analyzed");
  assert.ok(row.analyzedAt instanceof Date && Math.abs(row.analyzedAt.getTime() - Date.now()) < 60_000);
  assert.deepEqual(row.items.map((i) => i.content), ["fact 1", "fact 2"]);
});

test("a crash between saving the items and marking the row: the re-run duplicates nothing", async () => {
  // The state such a crash leaves: items saved, the row still pending.
  await db.queryPage.update({ where: { id: queryPageId }, data: { status: "pending", analyzedAt: null } });
  assert.equal(await store.saveAnalysis(queryPageId, researchId, "https://a.example/1", ["fact 1", "fact 2"]), true);
  assert.equal(await db.extractedItem.count({ where: { queryPageId } }), 2);
});

test("a failed page records its error once", async () => {
  const other = await db.queryPage.findFirstOrThrow({ where: { query: { researchId }, id: { not: queryPageId } } });
  assert.equal(await store.failQueryPage(other.id, "HTTP 403"), true);
  assert.equal(await store.failQueryPage(other.id, "again"), false);
  assert.equal((await db.queryPage.findUniqueOrThrow({ where: { id: other.id } })).error, "HTTP 403");
});

test("sibling queries attaching the same URLs at the same time create each page once", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const siblings = await Promise.all(
    [0, 1, 2, 3].map((position) =>
      db.serpQuery.create({ data: { researchId: research.id, depth: 1, position, text: `q${position}`, objective: "o", levelBreadth: 4 } }),
    ),
  );
  const results = ["https://c.example/1", "https://c.example/2", "https://c.example/3"].map((url) => ({ url, title: url, snippet: "" }));
  const attached = await Promise.all(siblings.map((q) => store.attachSearchResults(q, results)));
  assert.deepEqual(attached.map((a) => a.rows.length), [3, 3, 3, 3]);
  assert.equal(await db.page.count({ where: { researchId: research.id } }), 3);
  assert.equal(await db.queryPage.count({ where: { query: { researchId: research.id } } }), 12);
});

test("a research's end is a compare-and-set: a cancel recorded first stands", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  assert.equal(await store.markCancelled(research.id), true);
  assert.equal(await store.finishResearch(research.id, { status: "completed", report: "late report", error: null }), null);
  assert.equal(await store.finishResearch(research.id, { status: "failed", error: "late failure" }), null);
  const row = await db.research.findUniqueOrThrow({ where: { id: research.id } });
  assert.equal(row.status, "cancelled");
  assert.equal(row.report, null);
  const other = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  assert.equal((await store.finishResearch(other.id, { status: "completed", report: "r", error: null }))?.status, "completed");
  assert.equal(await store.markCancelled(other.id), false, "a completed research is not cancelled after the fact");
});

test("a page's fetch: its writes land on the one page its queries share", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const queries = await Promise.all(
    [0, 1, 2].map((position) => db.serpQuery.create({ data: { researchId: research.id, depth: 1, position, text: `q${position}`, objective: "o", levelBreadth: 3 } })),
  );
  const attached = await Promise.all(queries.map((q) => store.attachSearchResults(q, [{ url: "https://shared.example/", title: "Shared", snippet: "" }])));
  const pageId = attached[0].rows[0].pageId;
  assert.deepEqual(attached.map(({ rows }) => rows[0].pageId), [pageId, pageId, pageId]);
  await store.updatePage(pageId, { status: "scraping", error: null });
  assert.equal((await db.page.findUniqueOrThrow({ where: { id: pageId } })).status, "scraping");
  const fetchedAt = new Date();
  await store.updatePage(pageId, { status: "scraped", title: "Shared, fetched", content: "the text", contentType: "html", fetchedAt, author: null, published: "2026-01-02" });
  const page = await db.page.findUniqueOrThrow({ where: { id: pageId } });
  assert.deepEqual(
    { status: page.status, title: page.title, content: page.content, contentType: page.contentType, fetchedAt: page.fetchedAt?.getTime(), author: page.author, published: page.published },
    { status: "scraped", title: "Shared, fetched", content: "the text", contentType: "html", fetchedAt: fetchedAt.getTime(), author: null, published: "2026-01-02" },
  );
});

test("queue mode's per-poll reads: the queries with work, whether the tree goes on, a page analysed elsewhere, a page's fetch state", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const make = (position: number, depth: number, status: string, childrenGenerated = false) =>
    db.serpQuery.create({ data: { researchId: research.id, depth, position, text: `q${position}`, objective: "o", levelBreadth: 1, status, childrenGenerated } });
  // Work left: unfinished, or completed above the last level with children not planned yet.
  const pending = await make(0, 1, "pending");
  const analyzing = await make(1, 1, "analyzing");
  const due = await make(2, 1, "completed");
  await make(3, 1, "completed", true);
  await make(4, 2, "completed");
  await make(5, 1, "failed");
  assert.deepEqual((await store.queriesWithWork(research.id, 2, ["pending", "searching", "scraping", "analyzing"])).sort(), [pending.id, analyzing.id, due.id].sort());
  assert.equal((await store.queryIdsOf(research.id)).length, 6);

  // No run yet: nothing to go on with; a run: it goes on until a cancel is asked or the research ends.
  assert.equal(await store.treeGoesOn(research.id), false);
  const run = await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  assert.equal(await store.treeGoesOn(research.id), true);
  await db.run.update({ where: { id: run.id }, data: { cancelRequestedAt: new Date() } });
  assert.equal(await store.treeGoesOn(research.id), false);
  await db.run.update({ where: { id: run.id }, data: { cancelRequestedAt: null } });
  await db.research.update({ where: { id: research.id }, data: { status: "completed" } });
  assert.equal(await store.treeGoesOn(research.id), false);
  assert.equal(await store.treeGoesOn("no-such-research"), false);

  const [{ rows: [first] }, { rows: [second] }] = await Promise.all(
    [await make(6, 2, "pending"), await make(7, 2, "pending")].map((q) => store.attachSearchResults(q, [{ url: "https://elsewhere.example/", title: "Shared", snippet: "" }])),
  );
  assert.equal(await store.pageAnalyzedElsewhere(first.pageId, first.id), false);
  assert.equal(await store.saveAnalysis(second.id, research.id, "https://elsewhere.example/", ["x"]), true);
  assert.equal(await store.pageAnalyzedElsewhere(first.pageId, first.id), true);
  assert.equal(await store.pageAnalyzedElsewhere(first.pageId, second.id), false, "its own analysis is not elsewhere");

  await store.updatePage(first.pageId, { status: "scraped", content: "the text", title: "T" });
  assert.deepEqual(await store.getPage(first.pageId), { id: first.pageId, url: "https://elsewhere.example/", status: "scraped", title: "T", content: "the text", error: null });
  await assert.rejects(store.getPage("no-such-page"), /No page/);
});

test("a query's path on plain SQL returns the rows Prisma's model API reads: created, status moves, results attached, reattached", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const roots = await store.createRootQueries(research.id, [{ query: "q0", objective: "o0" }, { query: "q1", objective: "o1" }], 2);
  assert.equal(roots.length, 2);
  assert.deepEqual(await store.createRootQueries(research.id, [{ query: "again", objective: "o" }], 1), [], "the roots are created once");
  for (const root of roots) assert.deepEqual(root, await db.serpQuery.findUniqueOrThrow({ where: { id: root.id } }));

  const startedAt = new Date(Date.UTC(2026, 10, 26, 10, 0, 0, 123));
  const searching = await store.setQueryStatus(roots[0].id, "searching", { startedAt });
  assert.deepEqual(searching, await db.serpQuery.findUniqueOrThrow({ where: { id: roots[0].id } }));
  assert.equal(searching.startedAt?.getTime(), startedAt.getTime());
  await assert.rejects(store.setQueryStatus("no-such-query", "failed"), /No query/);

  const hits = [{ url: "https://c.example/1", title: "C1", snippet: "" }, { url: "https://c.example/2", title: "", snippet: "" }];
  const attached = await store.attachSearchResults(searching, hits);
  const viaPrisma = await db.queryPage.findMany({ where: { queryId: roots[0].id }, include: { page: { omit: { content: true } }, items: true }, orderBy: { position: "asc" } });
  assert.deepEqual(attached.rows, viaPrisma);
  assert.deepEqual(attached.query, await db.serpQuery.findUniqueOrThrow({ where: { id: roots[0].id } }));
  assert.equal(attached.query.status, "scraping");
  assert.equal(attached.rows[1].page.title, null, "an empty title is stored as none");

  // A second execution (a duplicated job) takes the rows attached, items included, and inserts nothing.
  assert.equal(await store.saveAnalysis(attached.rows[0].id, research.id, "https://c.example/1", ["c fact"]), true);
  const again = await store.attachSearchResults(searching, [{ url: "https://c.example/3", title: "C3", snippet: "" }]);
  const viaPrismaAgain = await db.queryPage.findMany({ where: { queryId: roots[0].id }, include: { page: { omit: { content: true } }, items: true }, orderBy: { position: "asc" } });
  assert.deepEqual(again.rows, viaPrismaAgain);
  assert.deepEqual(again.rows.map((r) => r.items.map((i) => i.content)), [["c fact"], []]);
  assert.deepEqual(await store.queryPagesOfQuery(roots[0].id), viaPrismaAgain);
  assert.equal(await db.page.count({ where: { researchId: research.id } }), 2);

  const completed = await store.setQueryStatus(roots[0].id, "completed", { completedAt: new Date(), error: null, tokens: { promptTokens: 30, completionTokens: 4 } });
  assert.equal(completed.promptTokens, 30);
  assert.deepEqual(completed, await db.serpQuery.findUniqueOrThrow({ where: { id: roots[0].id } }));

  const children = await store.createChildQueries(completed, [{ query: "child", objective: "oc" }], 1);
  assert.deepEqual(children, [await db.serpQuery.findUniqueOrThrow({ where: { id: children[0].id } })]);
  assert.equal(children[0].parentId, roots[0].id);
  assert.equal(children[0].depth, 2);
  assert.deepEqual(await store.createChildQueries(completed, [{ query: "again", objective: "o" }], 1), [], "the children are created once");
  assert.equal((await db.serpQuery.findUniqueOrThrow({ where: { id: roots[0].id } })).childrenGenerated, true);
  // Two executions of one node plan its children at once (queue mode): one set goes in.
  const [first, second] = await Promise.all([0, 1].map((n) => store.createChildQueries(children[0], [{ query: `g${n}a`, objective: "o" }, { query: `g${n}b`, objective: "o" }], 2)));
  assert.equal([first, second].filter((set) => set.length === 2).length, 1, "one of them created the children");
  assert.deepEqual(await db.serpQuery.findMany({ where: { parentId: children[0].id }, orderBy: { position: "asc" } }), first.length ? first : second);

  // A planning's calls (begun unsettled) settle with the children's insert: on the research and the
  // parent; and when another execution planned them first, all the same.
  const grandchild = first.length ? first[0] : second[0];
  await store.beginUsage(research.id);
  await store.beginUsage(research.id);
  const before = await db.research.findUniqueOrThrow({ where: { id: research.id } });
  const planned = await store.createChildQueries(grandchild, [{ query: "h", objective: "o" }], 1, { promptTokens: 100, completionTokens: 10, calls: 1, settles: 1 });
  assert.equal(planned.length, 1);
  assert.deepEqual(await store.createChildQueries(grandchild, [{ query: "h2", objective: "o" }], 1, { promptTokens: 50, completionTokens: 5, calls: 1, settles: 1 }), []);
  const after = await db.research.findUniqueOrThrow({ where: { id: research.id } });
  assert.deepEqual(
    [after.promptTokens - before.promptTokens, after.completionTokens - before.completionTokens, after.llmCalls - before.llmCalls, after.llmCallsUnsettled - before.llmCallsUnsettled],
    [150, 15, 2, -2],
  );
  const planner = await db.serpQuery.findUniqueOrThrow({ where: { id: grandchild.id } });
  assert.deepEqual([planner.promptTokens, planner.completionTokens, planner.childrenGenerated], [150, 15, true]);

  const chain = await store.chainLearnings([completed, children[0]]);
  assert.deepEqual(chain.map((q) => q.learnings), [[{ content: "c fact", url: "https://c.example/1" }], []]);
});

test("queue mode's exclusive save: two analyses of one row at once store one of them, whole; a row no longer pending stores nothing", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const query = await db.serpQuery.create({ data: { researchId: research.id, depth: 1, position: 0, text: "q", objective: "o", levelBreadth: 1 } });
  const { rows } = await store.attachSearchResults(query, [{ url: "https://x.example/1", title: "X", snippet: "" }]);
  const id = rows[0].id;
  const results = await Promise.all([
    store.saveAnalysis(id, research.id, "https://x.example/1", ["a1", "a2", "a3"], { exclusive: true }),
    store.saveAnalysis(id, research.id, "https://x.example/1", ["b1"], { exclusive: true }),
  ]);
  assert.deepEqual(results.filter(Boolean).length, 1, "one of the two marks the row");
  const items = (await db.extractedItem.findMany({ where: { queryPageId: id }, orderBy: { position: "asc" } })).map((i) => i.content);
  assert.ok(JSON.stringify(items) === JSON.stringify(["a1", "a2", "a3"]) || JSON.stringify(items) === JSON.stringify(["b1"]), `one analysis's items, not a mix: ${items}`);
  const row = await db.queryPage.findUniqueOrThrow({ where: { id } });
  assert.equal(row.status, "analyzed");
  assert.ok(row.analyzedAt instanceof Date && Math.abs(row.analyzedAt.getTime() - Date.now()) < 60_000);
  const item = await db.extractedItem.findFirstOrThrow({ where: { queryPageId: id } });
  assert.ok(Math.abs(item.createdAt.getTime() - row.analyzedAt.getTime()) < 5, "the items' time is the mark's");
  assert.equal(await store.saveAnalysis(id, research.id, "https://x.example/1", ["c1"], { exclusive: true }), false);
  assert.equal(await db.extractedItem.count({ where: { queryPageId: id } }), items.length);

  // An analysis that found nothing against one that found items: whichever marks first, the row holds its result alone.
  const second = await db.serpQuery.create({ data: { researchId: research.id, depth: 1, position: 1, text: "q2", objective: "o", levelBreadth: 1 } });
  const other = (await store.attachSearchResults(second, [{ url: "https://x.example/2", title: "X2", snippet: "" }])).rows[0].id;
  const [empty, found] = await Promise.all([
    store.saveAnalysis(other, research.id, "https://x.example/2", [], { exclusive: true }),
    store.saveAnalysis(other, research.id, "https://x.example/2", ["d1", "d2"], { exclusive: true }),
  ]);
  assert.equal(Number(empty) + Number(found), 1, "one of the two marks the row");
  assert.equal(await db.extractedItem.count({ where: { queryPageId: other } }), found ? 2 : 0);
  assert.equal((await db.queryPage.findUniqueOrThrow({ where: { id: other } })).status, "analyzed");
  assert.equal(await store.saveAnalysis(other, research.id, "https://x.example/2", [], { exclusive: true }), false, "a row no longer pending is not marked again");
});

test("an analysis's calls are settled with its save, its row marked or not, each research's in a group of several", async () => {
  const [a, b] = await Promise.all([0, 1].map(() => db.research.create({ data: { initialPrompt: "p", status: "running" } })));
  const rowsOf = async (researchId: string, urls: string[]) => {
    const query = await db.serpQuery.create({ data: { researchId, depth: 1, position: 0, text: "q", objective: "o", levelBreadth: 1 } });
    return (await store.attachSearchResults(query, urls.map((url) => ({ url, title: "T", snippet: "" })))).rows.map((r) => r.id);
  };
  const [rowsA, rowsB] = await Promise.all([rowsOf(a.id, ["https://s.example/1", "https://s.example/2"]), rowsOf(b.id, ["https://s.example/1"])]);
  for (const id of [a.id, a.id, a.id, b.id]) await store.beginUsage(id);
  const usage = async (id: string) => {
    const r = await db.research.findUniqueOrThrow({ where: { id } });
    return [r.promptTokens, r.completionTokens, r.llmCalls, r.llmCallsUnsettled];
  };
  assert.deepEqual(await usage(a.id), [0, 0, 0, 3], "begun calls count as unsettled");
  const saved = await Promise.all([
    store.saveAnalysis(rowsA[0], a.id, "https://s.example/1", ["a fact"], { exclusive: true, spent: { promptTokens: 100, completionTokens: 10, calls: 1, settles: 1 } }),
    store.saveAnalysis(rowsA[1], a.id, "https://s.example/2", [], { spent: { promptTokens: 200, completionTokens: 20, calls: 2, settles: 2 } }),
    store.saveAnalysis(rowsB[0], b.id, "https://s.example/1", ["b fact"], { exclusive: true, spent: { promptTokens: 50, completionTokens: 5, calls: 1, settles: 1 } }),
  ]);
  assert.deepEqual(saved, [true, true, true]);
  assert.deepEqual(await usage(a.id), [300, 30, 3, 0]);
  assert.deepEqual(await usage(b.id), [50, 5, 1, 0]);
  assert.deepEqual((await db.extractedItem.findMany({ where: { queryPageId: { in: [...rowsA, ...rowsB] } } })).map((i) => i.content).sort(), ["a fact", "b fact"]);
  // A row no longer pending is not marked again, and the calls spent on it are settled all the same.
  await store.beginUsage(b.id);
  assert.equal(await store.saveAnalysis(rowsB[0], b.id, "https://s.example/1", ["again"], { exclusive: true, spent: { promptTokens: 7, completionTokens: 1, calls: 1, settles: 1 } }), false);
  assert.deepEqual(await usage(b.id), [57, 6, 2, 0]);
  assert.equal(await db.extractedItem.count({ where: { queryPageId: rowsB[0] } }), 1);
});

test("queue mode's page fetch claim: one claimant at a time, a stale claim taken over, an ended fetch never; each reads the page", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const page = await db.page.create({ data: { researchId: research.id, url: "https://claim.example/", title: "Claim" } });
  const claimed = async (staleMs: number) => (await store.claimPageFetch(page.id, staleMs)).claimed;
  const claims = await Promise.all([store.claimPageFetch(page.id, 60_000), store.claimPageFetch(page.id, 60_000)]);
  assert.deepEqual(claims.map((c) => c.claimed).sort(), [false, true]);
  for (const c of claims) assert.deepEqual({ ...c.page, status: "" }, { id: page.id, url: "https://claim.example/", status: "", title: "Claim", content: null, error: null });
  assert.equal(claims.find((c) => c.claimed)?.page.status, "scraping", "the claimant reads the page as claimed");
  const row = await db.page.findUniqueOrThrow({ where: { id: page.id } });
  assert.equal(row.status, "scraping");
  assert.ok(row.fetchedAt instanceof Date);
  assert.equal(await claimed(60_000), false, "a live claim holds");
  await db.page.update({ where: { id: page.id }, data: { fetchedAt: new Date(Date.now() - 120_000) } });
  assert.equal(await claimed(60_000), true, "a claim older than staleMs is a dead worker's");
  // A fetch that goes on renews its claim: it holds however long ago it was taken.
  await db.page.update({ where: { id: page.id }, data: { fetchedAt: new Date(Date.now() - 120_000) } });
  await store.renewPageFetch(page.id);
  assert.equal(await claimed(60_000), false, "a renewed claim holds");
  await db.page.update({ where: { id: page.id }, data: { status: "scraped", content: "The page's text." } });
  const fetched = (await db.page.findUniqueOrThrow({ where: { id: page.id } })).fetchedAt;
  await store.renewPageFetch(page.id);
  assert.deepEqual((await db.page.findUniqueOrThrow({ where: { id: page.id } })).fetchedAt, fetched, "an ended fetch is not renewed");
  const ended = await store.claimPageFetch(page.id, 0);
  assert.equal(ended.claimed, false, "a fetched page is never claimed again");
  assert.deepEqual([ended.page.status, ended.page.content], ["scraped", "The page's text."], "and the claim reads it with its text");
  // And says whether a query has analysed it (read it in full) yet.
  assert.equal(ended.analyzedElsewhere, false);
  assert.equal(claims.some((c) => c.analyzedElsewhere), false);
  const [query] = await store.createRootQueries(research.id, [{ query: "claims", objective: "how claims work" }], 1);
  const link = await db.queryPage.create({ data: { queryId: query.id, pageId: page.id, position: 0, status: "pending" } });
  assert.equal((await store.claimPageFetch(page.id, 0)).analyzedElsewhere, false, "a pending analysis has not read it");
  await db.queryPage.update({ where: { id: link.id }, data: { status: "analyzed", analyzedAt: new Date() } });
  assert.equal((await store.claimPageFetch(page.id, 0)).analyzedElsewhere, true);
});

test("a node's page claims asked for together go in one statement, each answered as if alone", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running", depth: 1, breadth: 1 } });
  const [free, held, ended] = await Promise.all(["free", "held", "ended"].map((name) => db.page.create({ data: { researchId: research.id, url: `https://claims.example/${name}`, title: name } })));
  await db.page.update({ where: { id: held.id }, data: { status: "scraping", fetchedAt: new Date() } });
  await db.page.update({ where: { id: ended.id }, data: { status: "scraped", content: "Ended." } });
  const statements = countStatements(/UPDATE "Page" SET "status" = 'scraping'/);
  const [a, b, c, again, missing] = await Promise.allSettled([
    store.claimPageFetch(free.id, 60_000, "node-1"),
    store.claimPageFetch(held.id, 60_000, "node-1"),
    store.claimPageFetch(ended.id, 60_000, "node-1"),
    store.claimPageFetch(free.id, 60_000, "node-1"),
    store.claimPageFetch("no-such-page", 60_000, "node-1"),
  ]);
  statements.stop();
  assert.equal(statements.count, 1, "one statement for the group");
  const value = <T,>(r: PromiseSettledResult<T>) => (r.status === "fulfilled" ? r.value : assert.fail(String(r.reason)));
  assert.deepEqual([value(a).claimed, value(a).page.status], [true, "scraping"]);
  assert.deepEqual([value(b).claimed, value(b).page.status], [false, "scraping"], "a live claim holds");
  assert.deepEqual([value(c).claimed, value(c).page.status, value(c).page.content], [false, "scraped", "Ended."]);
  assert.deepEqual([value(again).claimed, value(again).page.status], [false, "scraping"], "a page asked for twice is claimed once");
  assert.equal(missing.status, "rejected", "a missing page fails its own caller only");
  assert.equal((await db.page.findUniqueOrThrow({ where: { id: free.id } })).status, "scraping");
});

test("the reads a node job starts with return the rows Prisma's model API reads", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running", depth: 2, breadth: 3, startedAt: new Date(), followupQuestions: '["q?"]' } });
  const viaModel = await db.research.findUniqueOrThrow({ where: { id: research.id } });
  assert.deepEqual(await store.loadResearch(research.id), viaModel);
  assert.equal(await store.loadResearch("no-such-research"), null);
  const roots = await store.createRootQueries(research.id, [{ query: "b", objective: "o" }, { query: "a", objective: "o" }], 2);
  await store.createChildQueries(roots[1], [{ query: "c", objective: "o" }], 1);
  const viaPrisma = await db.serpQuery.findMany({ where: { researchId: research.id }, orderBy: [{ depth: "asc" }, { createdAt: "asc" }, { parentId: "asc" }, { position: "asc" }, { id: "asc" }] });
  assert.deepEqual(await store.queriesOf(research.id), viaPrisma);
  assert.deepEqual((await store.queriesOf(research.id)).map((q) => q.text), ["b", "a", "c"]);
  // A node job's first read, in one statement: its chain (the query and its ancestors only, root
  // first), its research and the tree's run (none yet), rows as Prisma reads them.
  const c = viaPrisma.find((q) => q.text === "c")!;
  const reads = countStatements(/WITH RECURSIVE "chain"/);
  const planned = await db.research.findUniqueOrThrow({ where: { id: research.id } });
  assert.deepEqual(await store.loadNode(research.id, c.id), { research: planned, run: null, chain: [viaPrisma.find((q) => q.text === "a"), c] });
  reads.stop();
  assert.equal(reads.count, 1);
  const [grandchild] = await store.createChildQueries(c, [{ query: "d", objective: "o" }], 1);
  assert.deepEqual((await store.loadNode(research.id, grandchild.id))?.chain.map((q) => q.text), ["a", "c", "d"]);
  assert.deepEqual((await store.loadNode(research.id, roots[0].id))?.chain, [viaPrisma.find((q) => q.text === "b")]);
  assert.equal(await store.loadNode(research.id, "no-such-query"), null);
  assert.equal(await store.loadNode("no-such-research", c.id), null);
  assert.equal(await getRun({ kind: "tree", subjectId: research.id }), null);
  const run = await db.run.create({ data: { kind: "tree", subjectId: research.id } });
  assert.deepEqual(await getRun({ kind: "tree", subjectId: research.id }), run);
  const at = new Date(Date.UTC(2026, 10, 26, 11, 0, 0, 5));
  await db.run.update({ where: { id: run.id }, data: { cancelRequestedAt: at } });
  assert.deepEqual(await getRun({ kind: "tree", subjectId: research.id }), { ...run, cancelRequestedAt: at });
  const now = await db.research.findUniqueOrThrow({ where: { id: research.id } });
  const root = viaPrisma.find((q) => q.text === "b");
  assert.deepEqual(await store.loadNode(research.id, roots[0].id), { research: now, run: { id: run.id, cancelRequestedAt: at }, chain: [root] });
  // Another engine's run of the same subject id is not the tree's.
  await db.run.update({ where: { id: run.id }, data: { kind: "answer" } });
  assert.deepEqual(await store.loadNode(research.id, roots[0].id), { research: now, run: null, chain: [root] });
});

test("the analyses saved in one turn go together: each row its own items and result, a row saved twice keeps its first save, one no longer pending is not marked", async () => {
  for (const exclusive of [false, true]) {
    const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
    const query = await db.serpQuery.create({ data: { researchId: research.id, depth: 1, position: 0, text: "q", objective: "o", levelBreadth: 1 } });
    const urls = [1, 2, 3, 4].map((n) => `https://group.example/${n}`);
    const { rows } = await store.attachSearchResults(query, urls.map((url) => ({ url, title: url, snippet: "" })));
    const [a, b, c, d] = rows.map((r) => r.id);
    await store.failQueryPage(d, "HTTP 404");
    const results = await Promise.all([
      store.saveAnalysis(a, research.id, urls[0], ["a1", "a2"], { exclusive }),
      store.saveAnalysis(b, research.id, urls[1], [], { exclusive }),
      store.saveAnalysis(c, research.id, urls[2], ["c1"], { exclusive }),
      store.saveAnalysis(a, research.id, urls[0], ["other"], { exclusive }),
      store.saveAnalysis(d, research.id, urls[3], ["d1"], { exclusive }),
    ]);
    assert.deepEqual(results, [true, true, true, false, false], `exclusive: ${exclusive}`);
    const saved = await db.queryPage.findMany({ where: { queryId: query.id }, include: { items: { orderBy: { position: "asc" } } }, orderBy: { position: "asc" } });
    assert.deepEqual(saved.map((r) => r.status), ["analyzed", "analyzed", "analyzed", "failed"]);
    assert.deepEqual(saved.slice(0, 3).map((r) => r.items.map((i) => i.content)), [["a1", "a2"], [], ["c1"]]);
    assert.deepEqual(saved.slice(0, 3).map((r) => r.items.map((i) => i.url)), [[urls[0], urls[0]], [], [urls[2]]]);
    if (exclusive) assert.equal(saved[3].items.length, 0, "a row no longer pending stores nothing");
    // The one group's time, its items' too.
    assert.equal(new Set(saved.slice(0, 3).map((r) => r.analyzedAt?.getTime())).size, 1);
    assert.equal(saved[0].items[0].createdAt.getTime(), saved[0].analyzedAt?.getTime());
  }
});

test("on PostgreSQL a query's search results attach in one statement, a page another query attached linked, not inserted again", { skip: !testingOnPostgres() && "PostgreSQL only" }, async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running" } });
  const queries = await Promise.all([0, 1].map((position) => db.serpQuery.create({ data: { researchId: research.id, depth: 1, position, text: `q${position}`, objective: "o", levelBreadth: 2 } })));
  // The statements the driver is sent (the adapter's pool makes its clients from this class).
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const sql = args[0];
    sent.push(typeof sql === "string" ? sql : String((sql as { text?: string }).text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    const first = await store.attachSearchResults(queries[0], ["https://one.example/1", "https://one.example/2"].map((url) => ({ url, title: url, snippet: "" })));
    assert.equal(sent.length, 1, `one statement, got: ${sent.join(" | ")}`);
    assert.deepEqual(first.rows.map((r) => r.page.url), ["https://one.example/1", "https://one.example/2"]);
    const { rows: [sibling] } = await store.attachSearchResults(queries[1], [{ url: "https://one.example/2", title: "again", snippet: "" }]);
    assert.equal(sibling.pageId, first.rows[1].pageId);
  } finally {
    pg.Client.prototype.query = query;
  }
  assert.equal(await db.page.count({ where: { researchId: research.id } }), 2);
  assert.equal(await db.queryPage.count({ where: { query: { researchId: research.id } } }), 3);
});
