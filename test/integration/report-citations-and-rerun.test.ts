// Numbered citations in the stored report (as the API serves it), and re-run with the same answers.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { FABRICATED_URL, startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createAndStart, getView, waitForStatus } from "../helpers/research";
import { splitNumberedSources } from "@/lib/report-citations";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "citations", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

/** Every [n](url) of the text resolves to entry n of the list; the list is 1..N, each cited. */
function assertNumbered(report: string, analysed: Set<string>) {
  const { body, sources } = splitNumberedSources(report);
  assert.ok(sources.length >= 2, "the report has a numbered source list");
  assert.deepEqual(sources.map((s) => s.n), sources.map((_, i) => i + 1));
  const byN = new Map(sources.map((s) => [s.n, s.url]));
  const cites = [...body.matchAll(/\[(\d+)\]\((https?:\/\/[^)\s]+)\)/g)];
  assert.ok(cites.length >= sources.length);
  for (const [, n, url] of cites) assert.equal(byN.get(Number(n)), url, `[${n}] points at its list entry`);
  for (const s of sources) {
    assert.ok(analysed.has(s.url), `${s.url} was analysed`);
    assert.ok(s.title.length > 0);
    assert.ok(cites.some(([, n]) => Number(n) === s.n), `source ${s.n} is cited`);
  }
  assert.ok(!/\]\((https?:[^)]+)\)[^\n]*\n+## Sources[\s\S]*## Sources/.test(report), "one source list");
  assert.ok(!/\(\[?source\]?\(/i.test(body), "no unnumbered (source) links");
}

describe("numbered citations", () => {
  test("the stored report cites [n](url) against a titled, numbered source list; a fabricated citation is dropped", async () => {
    fakes.llm.configure({ hallucinateCitation: true });
    for (const prompt of ["Grid-scale battery storage economics", "Grid-scale battery storage economics!"]) {
      const id = await createAndStart(app, { prompt, depth: 1, breadth: 3, questions: 1 });
      const view = await waitForStatus(app, id, ["completed", "failed"]);
      assert.equal(view.status, "completed", view.error ?? "");
      const analysed = new Set(view.successful_scraped_websites.filter((w) => w.status === "analyzed").map((w) => w.url));
      assertNumbered(view.report!, analysed);
      assert.ok(!view.report!.includes(FABRICATED_URL));
      const titled = new Map(view.successful_scraped_websites.map((w) => [w.url, w.title]));
      for (const s of splitNumberedSources(view.report!).sources) if (titled.get(s.url)) assert.equal(s.title, titled.get(s.url));
      assert.equal(await (await app.fetch(`/api/research/${id}/report`)).text(), view.report);
    }
  });
});

describe("re-run", () => {
  test("makes a new research with the same prompt, questions and answers at the size asked; validates; refuses a draft", async () => {
    const id = await createAndStart(app, { depth: 1, breadth: 2, questions: 2 });
    const original = await waitForStatus(app, id, ["completed", "failed"]);

    const bad = await app.postJson(`/api/research/${id}/rerun`, { depth: 99 });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { field?: string }).field, "depth");

    const q = await app.postJson("/api/research/questions", { initial_prompt: "A draft only", num_questions: 1 });
    const { research_id: draft } = (await q.json()) as { research_id: string };
    assert.equal((await app.postJson(`/api/research/${draft}/rerun`, {})).status, 409);

    const res = await app.postJson(`/api/research/${id}/rerun`, { breadth: 3 });
    assert.equal(res.status, 202, await res.clone().text());
    const started = (await res.json()) as { research_id: string; status: string; links: { self: string } };
    assert.notEqual(started.research_id, id);
    assert.equal(started.links.self, `/api/research/${started.research_id}`);
    const again = await waitForStatus(app, started.research_id, ["completed", "failed"]);
    assert.equal(again.status, "completed", again.error ?? "");
    assert.deepEqual(
      [again.initial_prompt, again.followup_questions, again.followup_answers, again.depth, again.breadth],
      [original.initial_prompt, original.followup_questions, original.followup_answers, 1, 3],
    );
    assert.equal(again.serp_queries.length, 3);
    assert.equal((await getView(app, id)).status, original.status, "the original is unchanged");
  });
});
