// Crash and failure: a killed server resumes its runs without duplicating rows; a research whose
// LLM goes down past its retries fails and leaves error-output.md.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createAndStart, pageAnalyses, waitForStatus } from "../helpers/research";
import { queriesPerLevel } from "@/lib/explore/tree";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "resume", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

test("a research interrupted by a crash resumes on restart and completes with no duplicate rows", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  fakes.search.configure({ failingPageShare: 0.2 });
  const id = await createAndStart(app, { depth: 2, breadth: 3 });
  // Kill the server once some queries are finished and others are still in flight.
  const before = await waitFor(async () => {
    const queries = await app.db.serpQuery.findMany({ where: { researchId: id } });
    const done = queries.filter((q) => q.status === "completed");
    return done.length >= 2 && queries.length > done.length ? { queries, done } : undefined;
  }, 60_000, "a partly finished tree");
  await app.kill();
  const doneBefore = await app.db.serpQuery.findMany({ where: { researchId: id, status: "completed" }, include: { queryPages: { include: { items: true } } } });
  assert.ok(doneBefore.length >= before.done.length);
  assert.equal((await app.db.research.findUniqueOrThrow({ where: { id } })).status, "running");

  await app.restart();
  const view = await waitForStatus(app, id, ["completed", "failed"]);
  assert.equal(view.status, "completed", view.error ?? "");
  assert.deepEqual(
    (await app.db.serpQuery.groupBy({ by: ["depth"], where: { researchId: id }, _count: true, orderBy: { depth: "asc" } })).map((g) => g._count),
    queriesPerLevel(2, 3),
    "no duplicate queries",
  );
  // Finished queries kept their results untouched.
  for (const q of doneBefore) {
    const after = await app.db.serpQuery.findUniqueOrThrow({ where: { id: q.id }, include: { queryPages: { include: { items: true } } } });
    assert.equal(after.completedAt?.getTime(), q.completedAt?.getTime());
    assert.deepEqual(after.queryPages.flatMap((p) => p.items.map((i) => i.id)).sort(), q.queryPages.flatMap((p) => p.items.map((i) => i.id)).sort());
  }
  // No duplicate pages, links or items.
  const pages = await app.db.page.findMany({ where: { researchId: id } });
  assert.equal(pages.length, new Set(pages.map((p) => p.url)).size);
  const items = await app.db.extractedItem.findMany({ where: { researchId: id } });
  const keys = items.map((i) => `${i.queryPageId}|${i.position}`);
  assert.equal(keys.length, new Set(keys).size);
  const contentKeys = items.map((i) => `${i.queryPageId}|${i.content}`);
  assert.equal(contentKeys.length, new Set(contentKeys).size, "an analysis was saved twice");
  assert.ok(view.report && view.report.length > 100);
});

test("a research whose LLM refuses every call is marked failed, writes error-output.md, and resumes once the LLM is back", async () => {
  fakes.search.configure({ failingPageShare: 0.3 });
  fakes.llm.configure({ latencyMs: 60 });
  const id = await createAndStart(app, { depth: 2, breadth: 2 });
  // Let some pages be analysed, then take the LLM down.
  await waitFor(async () => ((await app.db.extractedItem.count({ where: { researchId: id } })) > 0 ? true : undefined), 60_000, "extracted items");
  // A rejected API key: no retry or wait can help, so the research stops (an outage only pauses it).
  fakes.llm.configure({ failAll: 401 });
  const view = await waitForStatus(app, id, ["completed", "failed"]);
  assert.equal(view.status, "failed");
  assert.match(view.error ?? "", /language model is unavailable: HTTP 401/i);
  const unfinished = new Set(["pending", "searching", "scraping", "analyzing"]);
  assert.deepEqual(view.serp_queries.filter((q) => unfinished.has(q.status)), [], "no query left in progress");

  const res = await app.fetch(`/api/research/${id}/error-output`);
  assert.equal(res.status, 200);
  const md = await res.text();
  assert.match(md, /^# Research failed/m);
  assert.match(md, /## Analysed websites \([1-9]\d*\)/);
  const analysed = view.successful_scraped_websites.filter((w) => w.status === "analyzed");
  for (const w of analysed) {
    assert.ok(md.includes(w.url), `error output lists ${w.url}`);
    for (const item of w.items) assert.ok(md.includes(item.content));
  }
  for (const w of view.successful_scraped_websites.filter((x) => x.status === "failed" && x.error_message)) {
    assert.ok(md.includes(w.url));
  }
  assert.match(md, /## Partial report/);
  // The file was written at failure time too.
  assert.equal(fs.readFileSync(path.join(app.reportsDir, id, "error-output.md"), "utf8"), md);

  // With the LLM back, the research resumes from where it stopped and completes every branch.
  const itemsBefore = (await app.db.extractedItem.findMany({ where: { researchId: id } })).map((i) => i.id).sort();
  const analysedBefore = await app.db.queryPage.count({ where: { query: { researchId: id }, status: "analyzed" } });
  fakes.reset();
  const resumed = await app.postJson(`/api/research/${id}/resume`, {});
  assert.equal(resumed.status, 202, await resumed.clone().text());
  const done = await waitForStatus(app, id, ["completed", "failed"]);
  assert.equal(done.status, "completed", done.error ?? "");
  assert.equal(done.error, null);
  assert.deepEqual(
    (await app.db.serpQuery.groupBy({ by: ["depth"], where: { researchId: id }, _count: true, orderBy: { depth: "asc" } })).map((g) => g._count),
    queriesPerLevel(2, 2),
  );
  const itemsAfter = new Set((await app.db.extractedItem.findMany({ where: { researchId: id } })).map((i) => i.id));
  for (const item of itemsBefore) assert.ok(itemsAfter.has(item), "items found before the failure are kept");
  const analysedAfter = await app.db.queryPage.count({ where: { query: { researchId: id }, status: "analyzed" } });
  // Only the analyses not done before are made: each page read once for each query waiting for it,
  // and a query's choice from pages read before it in one call (lib/explore/page-reads.ts).
  const answeredCalls = fakes.llm.log.filter((e) => e.status === 200);
  const promptOf = (e: (typeof answeredCalls)[number]) => e.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
  const reads = answeredCalls.filter((e) => e.agent === "website-analyzer").map(promptOf);
  const analyses = pageAnalyses(answeredCalls);
  assert.equal(new Set(analyses).size, analyses.length, "no page analysed twice for a query");
  const served = reads.reduce((n, p) => n + (p.match(/<query id="Q\d+"/g) ?? []).length, 0) + answeredCalls.filter((e) => e.agent === "item-selector").reduce((n, e) => n + (promptOf(e).match(/<page url=/g) ?? []).length, 0);
  assert.ok(served <= analysedAfter - analysedBefore, `${served} analyses for ${analysedAfter - analysedBefore} rows analysed after the resume`);

  // A completed research has no error output.
  fakes.reset();
  const ok = await createAndStart(app, { depth: 1, breadth: 1 });
  await waitForStatus(app, ok, ["completed"]);
  assert.equal((await app.fetch(`/api/research/${ok}/error-output`)).status, 404);
});
