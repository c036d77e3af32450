// Queue mode: a node job that finds its pages being fetched by another worker (their claims in the
// database) goes on when that worker announces the fetches' end, not at its next look: the look is
// set to a minute here, so without the announcement the node would still be waiting.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { countStatements, useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";
import type { PartJobs } from "../runs/part-jobs";

await useTestDatabase();
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { SCRAPE_TIMEOUT_MS: "2000", LLM_RETRY_BUDGET_MS: "0", PAGE_CLAIM_POLL_MS: "60000" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { runTreeNode } = await import("./distributed");
const { announcePageEnd } = await import("./page-ends");
const store = await import("../db/tree");
const { searchWeb } = await import("../search");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});

/** No other node: a (1, 1) tree's root plans no children. */
const nodes: PartJobs = { ensure: async () => new Map(), running: async () => 0 };

test("pages claimed by another worker: the node waits, and goes on as soon as their fetch's end is announced", async () => {
  const research = await db.research.create({ data: { initialPrompt: "Seasonal thermal storage in district heating", status: "running", depth: 1, breadth: 1 } });
  await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  const [query] = await store.createRootQueries(research.id, [{ query: "seasonal thermal energy storage district heating", objective: "How large pit storage is built and what it costs" }], 1);
  // "Another worker" claimed every page the search finds, a moment ago.
  const urls = [...new Set((await searchWeb(query.text)).map((r) => r.url))];
  assert.ok(urls.length > 0);
  const pages = await Promise.all(urls.map((url) => db.page.create({ data: { researchId: research.id, url, status: "scraping", fetchedAt: new Date() } })));

  let ended = false;
  const node = runTreeNode({ researchId: research.id, queryId: query.id, nodes }).finally(() => (ended = true));
  // The node has searched, attached the claimed pages and waits for them.
  const deadline = Date.now() + 20_000;
  while ((await db.queryPage.count({ where: { queryId: query.id } })) < urls.length) {
    assert.ok(Date.now() < deadline, "the node attached its search results");
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(ended, false, "the node waits for the pages fetched elsewhere");
  assert.equal(await db.queryPage.count({ where: { queryId: query.id, status: "pending" } }), urls.length);

  // The other worker's fetches end: written, then announced.
  for (const page of pages) {
    await db.page.update({ where: { id: page.id }, data: { status: "scraped", title: "Pit thermal energy storage", content: `Pit thermal energy storage at ${page.url} holds 200,000 cubic metres of water. It costs about 30 euros per cubic metre to build.` } });
    announcePageEnd(page.id);
  }
  const t0 = performance.now();
  assert.equal(await node, "done");
  assert.ok(performance.now() - t0 < 20_000, "not at its next look, a minute later");
  const links = await db.queryPage.findMany({ where: { queryId: query.id } });
  assert.ok(links.every((l) => l.status === "analyzed"), "every page analysed, from the other worker's fetch");
  assert.equal((await db.page.findMany({ where: { researchId: research.id } })).length, urls.length, "no page fetched twice");
  assert.equal((await db.serpQuery.findUniqueOrThrow({ where: { id: query.id } })).status, "completed");
});

test("pages another worker fetched and one of its queries read in full: this node sends only their matching passages", async () => {
  const research = await db.research.create({ data: { initialPrompt: "Borehole thermal storage", status: "running", depth: 1, breadth: 2 } });
  await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  const [other, query] = await store.createRootQueries(research.id, [
    { query: "borehole thermal energy storage", objective: "How boreholes store heat" },
    { query: "borehole thermal energy storage", objective: "What borehole fields cost" },
  ], 2);
  const urls = [...new Set((await searchWeb(query.text)).map((r) => r.url))];
  const text = (url: string) => `Borehole fields at ${url} store heat in rock. ${"Drilling a 200 metre borehole costs about 15,000 euros. ".repeat(40)}${"Unrelated filler about sports results and weather. ".repeat(400)}`;
  // "Another worker" fetched every page and its query read each in full.
  const pages = await Promise.all(urls.map((url) => db.page.create({ data: { researchId: research.id, url, status: "scraped", title: "Borehole storage", content: text(url), fetchedAt: new Date() } })));
  await db.queryPage.createMany({ data: pages.map((p, position) => ({ queryId: other.id, pageId: p.id, position, status: "analyzed", analyzedAt: new Date() })) });
  fakes.llm.log.length = 0;
  // The claim that finds a page ended says whether a query read it in full: no look of its own before each analysis.
  const looks = countStatements(/FROM "QueryPage" WHERE "pageId" = .* AND "id" <> .* LIMIT 1/);
  assert.equal(await runTreeNode({ researchId: research.id, queryId: query.id, nodes }), "done");
  looks.stop();
  assert.equal(looks.count, 0, "whether each page was read in full came with its claim");
  const analyses = fakes.llm.log.filter((e) => e.agent === "website-analyzer");
  assert.equal(analyses.length, urls.length);
  const prompts = analyses.map((e) => e.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join(" "));
  assert.ok(prompts.every((p) => p.includes('excerpt="passages matching the objectives"')), "each page sent as its matching passages");
  assert.ok(prompts.every((p) => !p.includes("Unrelated filler about sports results and weather. ".repeat(100))), "not in full");
});
