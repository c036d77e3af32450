// The query generator against models that write too few queries or keep repeating themselves:
// the tree keeps its exact shape when the model can be asked again, and a research whose model
// cannot plan them all goes on with fewer queries and a warning instead of failing.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { countByDepth, createAndStart, waitForStatus } from "../helpers/research";
import { queriesPerLevel } from "@/lib/explore/tree";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "shortfall", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

const PROMPT = "LLM fault r2 e";

describe("query shortfall", () => {
  test("depth 1 × breadth 3 with the issue's prompt completes with exactly 3 root queries", async () => {
    const id = await createAndStart(app, { prompt: PROMPT, depth: 1, breadth: 3 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    assert.deepEqual(countByDepth(view), [3]);
    assert.equal(new Set(view.serp_queries.map((q) => q.text.toLowerCase())).size, 3);
    assert.deepEqual(view.warnings, []);
  });

  test("a model that writes one query too few: depth 2 × breadth 3 keeps the tree's level sizes", async () => {
    fakes.llm.configure({ queryCountOverride: "fewer" });
    const id = await createAndStart(app, { prompt: PROMPT, depth: 2, breadth: 3, questions: 1 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    assert.deepEqual(countByDepth(view), queriesPerLevel(2, 3));
    assert.deepEqual(countByDepth(view), [3, 6]);
    for (const root of view.serp_queries.filter((q) => q.depth === 1)) {
      assert.equal(view.serp_queries.filter((c) => c.parent_query_id === root.query_id).length, 2, root.text);
    }
    assert.equal(new Set(view.serp_queries.map((q) => q.text.toLowerCase())).size, 9, "all queries distinct");
    assert.deepEqual(view.warnings, []);
  });

  // These two depend on the runner catching QueryShortfallError (using error.queries and recording
  // error.message as a warning); before that the research fails with the same message.
  test("a model stuck repeating itself: the research completes with fewer root queries and a warning", async () => {
    fakes.llm.configure({ queryCountOverride: "stuck" });
    const id = await createAndStart(app, { prompt: PROMPT, depth: 1, breadth: 3, questions: 1 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    assert.deepEqual(countByDepth(view), [2]);
    assert.ok(view.report && view.report.length > 0, "the report is written from the queries it has");
    assert.ok(
      view.warnings.some((w) => w.includes("The query generator planned 2 of 3 queries after 3 repair attempts")),
      `warnings: ${JSON.stringify(view.warnings)}`,
    );
    // The first reply and three repair requests, no more.
    assert.equal(fakes.llm.calls("query-generator"), 4);
  });

  test("a model stuck repeating itself at depth 2: short levels, a warning per shortfall, and the research completes", async () => {
    fakes.llm.configure({ queryCountOverride: "stuck" });
    const id = await createAndStart(app, { prompt: PROMPT, depth: 2, breadth: 3, questions: 1 });
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    // Roots: 2 of 3; each root's children: 1 of 2 (the stuck model repeats its first child and its parent).
    assert.deepEqual(countByDepth(view), [2, 2]);
    assert.ok(view.warnings.some((w) => w.includes("planned 2 of 3 queries")), `warnings: ${JSON.stringify(view.warnings)}`);
    assert.ok(view.warnings.some((w) => w.includes("planned 1 of 2 queries")), `warnings: ${JSON.stringify(view.warnings)}`);
    assert.equal(fakes.llm.calls("query-generator"), 4 * 3, "each of the three generations stops after three repairs");
  });
});
