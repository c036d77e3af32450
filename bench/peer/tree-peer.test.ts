// The lean peer against the loopback fakes: its tree arithmetic, its per-branch limit, its bound and its
// page text, so that the side-by-side figure compares Quarry with the design the issue names.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startFakes, type Fakes } from "../../test/fakes";
import { formatPeerMarkdown, formatWebsMarkdown, peerRow } from "./report";
import { pageText, peerBoundMs, runTreePeer } from "./tree-peer";

let fakes: Fakes;
before(async () => {
  // No failing pages (a hanging one would wait out the peer's 15 s page timeout); calls long enough to overlap.
  fakes = await startFakes({ search: { failingPageShare: 0 }, llm: { latencyMs: 30 } });
});
after(() => fakes.stop());

const run = (depth: number, breadth: number, concurrency = 16) =>
  runTreePeer({ prompt: "How do grid-scale batteries earn money?", depth, breadth, concurrency, llmBaseUrl: fakes.env.OPENAI_BASE_URL, searxngUrl: fakes.env.SEARXNG_URL });

test("a (2, 3) tree: 3 queries, each with a branch of 2; one plan per branch, one learning call per query, one report", async () => {
  fakes.reset();
  const r = await run(2, 3);
  assert.equal(r.queries, 3 + 3 * 2);
  assert.equal(r.searches, r.queries);
  assert.equal(r.llmCalls, 1 + 3 + r.queries + 1);
  assert.equal(fakes.llm.calls("peer-planner"), 4);
  assert.equal(fakes.llm.calls("peer-learner"), 9);
  assert.equal(fakes.llm.calls("peer-writer"), 1);
  assert.equal(r.failedQueries, 0);
  assert.ok(r.pagesRead > r.queries && r.pagesRead <= 5 * r.queries, `pages read: ${r.pagesRead}`);
  assert.ok(r.learnings > 0 && r.reportChars > 0);
  assert.ok(r.promptTokens > 0 && r.completionTokens > 0);
  // The branches' queries are named after their parents', as Quarry's are (the fake search treats both alike).
  const searched = fakes.search.log.map((e) => String((e as { q?: string }).q ?? ""));
  assert.ok(searched.some((q) => /aspect 2\.1$/.test(q)), searched.join(" | "));
});

test("the limit holds per level and branch: with 1, a level's queries run one after another", async () => {
  fakes.reset();
  await run(1, 4, 1);
  assert.equal(fakes.llm.peakInFlight, 1);
  fakes.reset();
  await run(1, 4, 4);
  assert.ok(fakes.llm.peakInFlight > 1);
});

test("its bound is the critical path: per level two calls, a search and a page, then the report", () => {
  assert.equal(peerBoundMs(5, { llmMs: 150, searchMs: 80, webMs: 60 }), 5 * (300 + 80 + 60) + 150);
});

test("page text drops scripts, styles, comments and tags, and keeps block breaks", () => {
  const text = pageText("<html><head><style>p{}</style><script>var a = '<p>';</script></head><body><h1>Title</h1><p>One &amp; two &amp;lt;3.<!-- x --></p><div>Three</div></body></html>");
  assert.equal(text, "Title\nOne & two &lt;3.\nThree");
});

test("the side-by-side table holds Quarry's span against the peer's median", () => {
  const peer = (wallMs: number) => ({ wallMs, llmCalls: 192, promptTokens: 280_000, completionTokens: 21_000, queries: 110, searches: 110, pagesRead: 550, learnings: 70, reportChars: 100, failedQueries: 0 });
  const md = formatPeerMarkdown(
    [peerRow(5, 5, 16, { llmMs: 150, searchMs: 80, webMs: 60 }, [peer(3000), peer(2600), peer(2800)])],
    [{ depth: 5, breadth: 5, database: "sqlite", wallMs: 4200, ratio: 1.5, llm: { calls: 860, promptTokens: 380_000, completionTokens: 46_000 } }],
  );
  assert.match(md, /\| 5 × 5 \| Quarry \(sqlite\) \| 1 \| 4\.20 s \| 1\.500 \| 860 \| 380k \/ 46k \| \*\*1\.50\*\* ✗ \|/);
  assert.match(md, /\| 5 × 5 \| peer, concurrency 16 \| 3 \| 2\.80 s \(3\.00, 2\.60, 2\.80\) \| 1\.191 \|/);
});

test("both webs side by side: span, prompt tokens and calls against the peer's, targets marked on the overlapping web", () => {
  const peer = (wallMs: number, promptTokens: number) => ({ wallMs, llmCalls: 192, promptTokens, completionTokens: 21_000, queries: 110, searches: 110, pagesRead: 550, learnings: 70, reportChars: 100, failedQueries: 0 });
  const latencies = { llmMs: 150, searchMs: 80, webMs: 60 };
  const quarry = (wallMs: number, promptTokens: number) => ({ depth: 5, breadth: 5, database: "sqlite", wallMs, ratio: 1.1, llm: { calls: 228, promptTokens, completionTokens: 15_000 }, pages: { distinctUrls: 22 }, quality: { plantedFacts: 70, inItems: 0.8, inReport: 0.33 } });
  const md = formatWebsMarkdown([
    { name: "distinct", overlap: false, tree: [quarry(3000, 310_000)], peer: [peerRow(5, 5, 16, latencies, [peer(2800, 292_000)])] },
    { name: "overlapping", overlap: true, tree: [quarry(2600, 339_000)], peer: [peerRow(5, 5, 16, latencies, [peer(2700, 656_000), peer(2900, 656_000), peer(2800, 656_000)])] },
  ]);
  assert.match(md, /\| distinct \| 5 × 5 \| 3\.00 s \/ 2\.80 s \| 1\.07 \| 310k \/ 292k \| 228 \/ 192 \| 22 \| 80\.0% \/ 33\.0% of 70 \|/);
  assert.match(md, /\| overlapping \| 5 × 5 \| 2\.60 s \/ 2\.80 s \| 0\.93 ✓ \| 339k \/ 656k ✓ \| 228 \/ 192 \|/);
  assert.equal(formatWebsMarkdown([{ name: "overlapping", overlap: true, tree: [], peer: [] }]), "");
});
