// Text from outside with NUL characters (U+0000), which PostgreSQL refuses in a text column: search
// results whose titles and snippets hold one, and pages (HTML, plain text) whose paragraphs start
// with one, through each engine. Every run ends as it would without them, and what is stored
// is the text with the NUL dropped (run on SQLite and, with TEST_DATABASE=postgres, on PostgreSQL).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { CONTENT_PAGES, startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { askAndWait } from "../helpers/answer";
import { pollUntilDone, startDr } from "../helpers/deep-research";
import { createAndStart, waitForStatus } from "../helpers/research";

const NUL = "\u0000";

describe("outside text with NUL characters", () => {
  let fakes: Fakes;
  let app: TestApp;
  before(async () => {
    fakes = await startFakes({ search: { failingPageShare: 0, inject: NUL }, web: { inject: NUL } });
    app = await TestApp.start({
      name: "outside-text",
      env: { ...fakes.env, LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "2", SCRAPE_TIMEOUT_MS: "5000" },
    });
  });
  after(async () => {
    await app?.stop();
    await fakes?.stop();
  });

  /** The pages of these researches: none holds a NUL, and each scraped one holds its fixture's facts. */
  async function checkPages(researchIds: string[]) {
    const pages = await app.db.page.findMany({ where: { researchId: { in: researchIds } } });
    const items = await app.db.extractedItem.findMany({ where: { researchId: { in: researchIds } } });
    assert.ok(pages.length > 0 && items.length > 0, `${pages.length} pages, ${items.length} items`);
    for (const text of [...pages.flatMap((p) => [p.title, p.content]), ...items.map((i) => i.content)]) {
      assert.ok(!text?.includes(NUL), `stored with a NUL: ${JSON.stringify(text?.slice(0, 80))}`);
    }
    const scraped = pages.filter((p) => p.content);
    assert.ok(scraped.length > 0, "some pages were scraped");
    for (const page of scraped) {
      const fixture = CONTENT_PAGES.find((f) => page.url.endsWith(f.path))!;
      assert.ok(page.content!.replace(/\s+/g, " ").includes(fixture.facts[0]), `${page.url} keeps its text`);
    }
    return pages;
  }

  test("a tree research stores the search results and pages without the NUL and completes", async () => {
    const id = await createAndStart(app, { depth: 1, breadth: 2 });
    const view = await waitForStatus(app, id, ["completed", "failed", "cancelled"]);
    assert.equal(view.status, "completed", view.error ?? "");
    assert.ok(view.report && !view.report.includes(NUL));
    const kinds = new Set((await checkPages([id])).filter((p) => p.content).map((p) => p.contentType));
    assert.ok(kinds.has("html"), [...kinds].join());
  });

  test("a Deep Research literature task does too", async () => {
    const start = await startDr(app, { message: "Solid-state batteries for grid storage", researchMode: "steering" });
    const done = (await pollUntilDone(app, start.pollUrl)).at(-1)!;
    assert.equal(done.status, "completed", JSON.stringify(done));
    const tasks = await app.db.research.findMany({ where: { conversationId: start.conversationId } });
    assert.ok(tasks.length > 0, "literature tasks ran");
    assert.ok(tasks.every((t) => t.status === "completed"), tasks.map((t) => `${t.status}: ${t.error}`).join("; "));
    await checkPages(tasks.map((t) => t.id));
  });

  // One source of NUL at a time: the search results, then the pages read.
  for (const source of ["search results", "page text"] as const) {
    test(`an answer run with a NUL in its ${source} answers with a quote from a page it read`, async () => {
      fakes.search.configure({ inject: source === "search results" ? NUL : "" });
      fakes.web.configure({ inject: source === "page text" ? NUL : "" });
      const q = `How much storage did grid batteries add in 2024 (${source})?`;
      const { stored, requestId } = await askAndWait(app, { q });
      fakes.reset();
      assert.equal(stored.status, "completed", stored.error ?? "");
      assert.deepEqual(stored.steps.map((s) => s.action), ["search", "visit", "answer"]);
      assert.equal(stored.references.length, 1, "the quote is on the stored page: attribution held");
      const run = await app.db.answerRun.findFirstOrThrow({ where: { requestId } });
      const pages = await app.db.answerPage.findMany({ where: { runId: run.id } });
      assert.ok(pages.length > 0);
      for (const text of [run.state, run.answer, ...pages.flatMap((p) => [p.title, p.content])]) {
        assert.ok(!text?.includes(NUL) && !text?.includes("\\u0000"), `stored with a NUL: ${JSON.stringify(text?.slice(0, 80))}`);
      }
    });
  }
});
