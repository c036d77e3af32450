// Tree research end to end through the HTTP API, against the loopback fakes.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { FABRICATED_URL, startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { citedUrls, countByDepth, createAndStart, getView, waitForStatus } from "../helpers/research";
import { queriesPerLevel } from "@/lib/explore/tree";
import type { ResearchItemsPage, ResearchItemView, ResearchStatusView } from "@/lib/types";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "tree", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

describe("tree research", () => {
  test("depth 2, breadth 3 completes with a cited report", async () => {
    const id = await createAndStart(app, { depth: 2, breadth: 3 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    assert.deepEqual(countByDepth(view), [3, 6]);
    for (const q of view.serp_queries) {
      assert.equal(q.status, "completed", `${q.text}: ${q.error_message}`);
      assert.ok(q.objective.length > 0);
      if (q.depth === 2) assert.ok(view.serp_queries.some((p) => p.query_id === q.parent_query_id && p.depth === 1));
    }
    const analysed = new Set(view.successful_scraped_websites.filter((w) => w.status === "analyzed").map((w) => w.url));
    assert.ok(analysed.size >= 5, `only ${analysed.size} analysed pages`);
    assert.ok(view.report && /^# /m.test(view.report) && /^## /m.test(view.report), "report has a title and sections");
    const cited = citedUrls(view.report!);
    assert.ok(cited.length >= 2, "the report cites its sources");
    for (const url of cited) assert.ok(analysed.has(url), `cites ${url}, which was not analysed`);
    // Every call the LLM answered for this research (questions included) is counted, none lost or twice.
    const sum = (key: "promptTokens" | "completionTokens") => fakes.llm.log.reduce((n, e) => n + e[key], 0);
    assert.deepEqual(
      { prompt: view.tokens.prompt, completion: view.tokens.completion, llm_calls: view.tokens.llm_calls },
      { prompt: sum("promptTokens"), completion: sum("completionTokens"), llm_calls: fakes.llm.log.length },
    );
    assert.ok(view.serp_queries.every((q) => q.prompt_tokens > 0), "tokens are counted per query");

    // The lean status view: the same counts and tree shape, without the items or the report's text.
    const leanResponse = await app.fetch(`/api/research/${id}?view=status`);
    assert.equal(leanResponse.status, 200);
    const leanText = await leanResponse.text();
    const lean = JSON.parse(leanText) as ResearchStatusView;
    assert.equal(lean.status, "completed");
    assert.equal(lean.has_report, true);
    assert.deepEqual(lean.tokens, view.tokens);
    assert.deepEqual(
      lean.serp_queries.map((q) => [q.query_id, q.parent_query_id, q.depth, q.status]),
      view.serp_queries.map((q) => [q.query_id, q.parent_query_id, q.depth, q.status]),
    );
    const items = view.successful_scraped_websites.reduce((n, w) => n + w.items.length, 0);
    assert.equal(lean.counts.items, items);
    assert.equal(lean.serp_queries.reduce((n, q) => n + q.items, 0), items);
    assert.equal(lean.counts.pages.analyzed, view.successful_scraped_websites.filter((w) => w.status === "analyzed").length);
    assert.equal(lean.links.self, `/api/research/${id}`);
    assert.doesNotMatch(leanText, /"items":\[|"report":(null|"#)/);
    const bad = await app.fetch(`/api/research/${id}?view=everything`);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { field?: string }).field, "view");

    // The items, paged: every item of the full view once, in pages that follow `next`; one query's; one website's.
    const paged: ResearchItemView[] = [];
    for (let after: string | null = "", pages = 0; after !== null; pages++) {
      assert.ok(pages <= items, "the pages end");
      const res = await app.fetch(`/api/research/${id}/items?limit=7${after ? `&after=${after}` : ""}`);
      assert.equal(res.status, 200);
      const page = (await res.json()) as ResearchItemsPage;
      assert.ok(page.items.length <= 7);
      paged.push(...page.items);
      after = page.next;
    }
    const key = (websiteId: string, content: string) => `${websiteId}\n${content}`;
    assert.deepEqual(
      paged.map((i) => key(i.website_id, i.content)).sort(),
      view.successful_scraped_websites.flatMap((w) => w.items.map((i) => key(w.id, i.content))).sort(),
    );
    const withItems = view.successful_scraped_websites.find((w) => w.items.length > 0)!;
    const ofQuery = (await (await app.fetch(`/api/research/${id}/items?query_id=${withItems.query_id}`)).json()) as ResearchItemsPage;
    assert.deepEqual(
      ofQuery.items.map((i) => key(i.website_id, i.content)).sort(),
      view.successful_scraped_websites.filter((w) => w.query_id === withItems.query_id).flatMap((w) => w.items.map((i) => key(w.id, i.content))).sort(),
    );
    const ofWebsite = (await (await app.fetch(`/api/research/${id}/items?website_id=${encodeURIComponent(withItems.id)}`)).json()) as ResearchItemsPage;
    assert.deepEqual(ofWebsite.items.map((i) => i.content), withItems.items.map((i) => i.content));
    const badLimit = await app.fetch(`/api/research/${id}/items?limit=0`);
    assert.equal(badLimit.status, 400);
    assert.equal(((await badLimit.json()) as { field?: string }).field, "limit");
    assert.equal((await app.fetch(`/api/research/nope/items`)).status, 404);

    const report = await app.fetch(`/api/research/${id}/report`);
    assert.equal(report.status, 200);
    assert.match(report.headers.get("content-type") ?? "", /text\/markdown/);
    assert.equal(await report.text(), view.report);
  });

  test("tree shape: counts per depth for several depth × breadth pairs", async () => {
    for (const [depth, breadth] of [[1, 4], [3, 2], [2, 5], [3, 3]] as const) {
      const id = await createAndStart(app, { depth, breadth, questions: 1 });
      const view = await waitForStatus(app, id, ["completed", "failed"]);
      assert.equal(view.status, "completed", view.error ?? "");
      assert.deepEqual(countByDepth(view), queriesPerLevel(depth, breadth), `depth ${depth} breadth ${breadth}`);
      for (const q of view.serp_queries.filter((x) => x.depth < depth)) {
        const children = view.serp_queries.filter((c) => c.parent_query_id === q.query_id);
        assert.equal(children.length, Math.ceil(q.level_breadth / 2));
        for (const c of children) assert.equal(c.level_breadth, Math.ceil(q.level_breadth / 2));
      }
    }
  });

  test("children start while a slow sibling is still running", async () => {
    // Branch 2's search and every LLM call of branch 2 alone are slow; branch 1 must not wait for them.
    // A page read shared by both branches (one call for the queries waiting for the page) is both
    // branches' call, not branch 2's alone (lib/explore/page-reads.ts): with its search late, branch 2
    // finds its pages read by branch 1 and chooses from their items in a call of its own, slow enough to
    // outlast the fast branch.
    // 6 s: the fast branch's child (planned, searched, read) must end before it even when a full test run loads the machine.
    fakes.llm.configure({ latencyRules: [{ match: "^(?![\\s\\S]*aspect 1(\\.|\\b))[\\s\\S]*aspect 2(\\.|\\b)", latencyMs: 6_000 }] });
    fakes.search.configure({ latencyRules: [{ match: "aspect 2(\\.|\\b)", latencyMs: 1_000 }] });
    fakes.search.configure({ failingPageShare: 0 });
    const id = await createAndStart(app, { depth: 2, breadth: 2 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    const rows = await app.db.serpQuery.findMany({ where: { researchId: id } });
    const slow = rows.find((q) => q.depth === 1 && / aspect 2$/.test(q.text));
    const fast = rows.find((q) => q.depth === 1 && / aspect 1$/.test(q.text));
    assert.ok(slow && fast, rows.map((r) => r.text).join(", "));
    const fastChildren = rows.filter((q) => q.parentId === fast.id);
    assert.equal(fastChildren.length, 1);
    assert.ok(fastChildren[0].createdAt < slow.completedAt!, "the fast branch's child was created before the slow sibling completed");
    assert.ok(fastChildren[0].completedAt! < slow.completedAt!, "and even completed before it");
  });

  test("failed pages are recorded and never stop their query", async () => {
    fakes.search.configure({ failingPageShare: 0.5 });
    const id = await createAndStart(app, { depth: 1, breadth: 3 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    const failed = view.successful_scraped_websites.filter((w) => w.status === "failed");
    const analysed = view.successful_scraped_websites.filter((w) => w.status === "analyzed");
    assert.ok(failed.length >= 2, `expected failing pages, got ${failed.length}`);
    assert.ok(analysed.length >= 2);
    for (const w of failed) assert.ok(w.error_message && w.error_message.length > 3, `${w.url} has no error message`);
    assert.ok(view.serp_queries.every((q) => q.status === "completed"));
    for (const w of view.successful_scraped_websites) assert.ok(["analyzed", "failed"].includes(w.status), `${w.url} left ${w.status}`);
  });

  test("every URL is fetched once per research, however many queries return it", async () => {
    fakes.search.configure({ failingPageShare: 0 });
    const id = await createAndStart(app, { depth: 2, breadth: 4 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed");
    const perQuery = view.successful_scraped_websites.length;
    const distinct = new Set(view.successful_scraped_websites.map((w) => w.url)).size;
    assert.ok(perQuery > distinct, "some URL was returned by several queries");
    const fetched = fakes.web.log.filter((e) => e.path.startsWith("/articles/") || e.path.startsWith("/docs/") || e.path.startsWith("/text/"));
    const paths = fetched.map((e) => e.path);
    assert.equal(paths.length, new Set(paths).size, "a URL was fetched twice");
    assert.ok(view.successful_scraped_websites.every((w) => w.url && w.query_id));
    for (const q of view.serp_queries) {
      assert.ok(view.successful_scraped_websites.filter((w) => w.query_id === q.query_id).length <= 7, "at most 7 URLs per query");
    }
  });

  test("the report cites only URLs that were analysed", async () => {
    fakes.llm.configure({ hallucinateCitation: true });
    const id = await createAndStart(app, { depth: 1, breadth: 2 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed");
    assert.ok(fakes.llm.log.some((e) => e.agent === "report-writer" && String(e.reply).includes(FABRICATED_URL)), "the fake did cite a fabricated URL");
    assert.ok(!view.report!.includes(FABRICATED_URL), "the fabricated citation was removed");
    const analysed = new Set(view.successful_scraped_websites.filter((w) => w.status === "analyzed").map((w) => w.url));
    for (const url of citedUrls(view.report!)) assert.ok(analysed.has(url), url);
  });

  test("progress is written to the database as it happens", async () => {
    fakes.llm.configure({ latencyMs: 120 });
    fakes.search.configure({ failingPageShare: 0 });
    const id = await createAndStart(app, { depth: 2, breadth: 2 });
    // Mid-run: queries, pages and extracted items are already in the database.
    const midRun = await waitFor(async () => {
      const [research, queries, items] = await Promise.all([
        app.db.research.findUniqueOrThrow({ where: { id } }),
        app.db.serpQuery.findMany({ where: { researchId: id } }),
        app.db.extractedItem.count({ where: { researchId: id } }),
      ]);
      return research.status === "running" && items > 0 && queries.some((q) => q.status !== "completed") ? { research, queries, items } : undefined;
    }, 60_000, "a mid-run state with items");
    assert.equal(midRun.research.report, null);
    assert.ok(midRun.queries.length >= 2);
    const pages = await app.db.page.findMany({ where: { researchId: id } });
    assert.ok(pages.length > 0);
    assert.ok(midRun.research.promptTokens > 0, "tokens are stored during the run");
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed");
  });

  test("structured output survives sloppy replies, broken JSON and 429s", async () => {
    fakes.llm.configure({ sloppy: true, brokenJsonTimes: 2, fail429Times: 2, retryAfterSeconds: 1 });
    const id = await createAndStart(app, { depth: 1, breadth: 2 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    assert.ok(view.successful_scraped_websites.some((w) => w.items.length > 0));
    assert.ok(fakes.llm.log.some((e) => e.status === 429));
  });

  test("history lists researches newest first, filters by status and searches by prompt", async () => {
    const res = await app.fetch("/api/research?limit=100");
    const { researches } = (await res.json()) as { researches: { research_id: string; status: string; initial_prompt: string; created_at: string }[] };
    assert.ok(researches.length >= 5);
    const times = researches.map((r) => r.created_at);
    assert.deepEqual([...times].sort().reverse(), times);
    const completed = (await (await app.fetch("/api/research?status=completed")).json()) as { researches: { status: string }[] };
    assert.ok(completed.researches.every((r) => r.status === "completed"));
    const none = (await (await app.fetch("/api/research?q=no-such-prompt-xyz")).json()) as { researches: unknown[] };
    assert.equal(none.researches.length, 0);
    const bad = await app.fetch("/api/research?status=bogus");
    assert.equal(bad.status, 400);
  });

  test("cancel stops a running research and delete removes it", async () => {
    fakes.llm.configure({ latencyMs: 300 });
    const id = await createAndStart(app, { depth: 3, breadth: 3 });
    await waitFor(async () => ((await getView(app, id)).serp_queries.length > 0 ? true : undefined), 30_000, "queries");
    const cancel = await app.postJson(`/api/research/${id}/cancel`, {});
    assert.equal(cancel.status, 200);
    const view = await getView(app, id);
    assert.equal(view.status, "cancelled");
    const again = await app.postJson(`/api/research/${id}/cancel`, {});
    assert.equal(again.status, 409);
    const del = await app.fetch(`/api/research/${id}`, { method: "DELETE" });
    assert.equal(del.status, 204);
    assert.equal((await app.fetch(`/api/research/${id}`)).status, 404);
    assert.equal(await app.db.serpQuery.count({ where: { researchId: id } }), 0);
  });
});
