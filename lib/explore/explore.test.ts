// exploreTree used directly, as another engine would: against the loopback fakes (in this process)
// and a real migrated database (SQLite, or PostgreSQL with TEST_DATABASE=postgres).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";
type EmittedEventLike = { researchId: string; type: string };
type Topic = { kind: string; subjectId: string };

await useTestDatabase();
const fakes: Fakes = await startFakes();
// A failed LLM call is lost at once (no retry budget), and lost planning is tried again after 200 ms.
Object.assign(process.env, fakes.env, { SCRAPE_TIMEOUT_MS: "2000", LLM_RETRY_BUDGET_MS: "0", PLAN_RETRY_DELAY_MS: "200" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { exploreTree } = await import("./explore");
const { queriesPerLevel } = await import("./tree");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});

function collectingSink() {
  const events: EmittedEventLike[] = [];
  return { events, sink: { emit: (topic: Topic, event: { type: string }) => void events.push({ researchId: topic.subjectId, type: event.type }) } };
}

async function newScope(prompt: string, depth: number, breadth: number) {
  const research = await db.research.create({ data: { initialPrompt: prompt, status: "running", depth, breadth } });
  return { researchId: research.id, prompt, qa: [{ question: "Which region?", answer: "Europe" }], depth, breadth };
}

let scope: Awaited<ReturnType<typeof newScope>>;
before(async () => {
  scope = await newScope("Heat pumps in cold climates", 2, 2);
});

test("exploreTree returns learnings whose ids resolve to stored items, and reports progress to its sink", async () => {
  const { events, sink } = collectingSink();
  const callsBefore = fakes.llm.log.length;
  const { learnings } = await exploreTree({ scope, sink, signal: new AbortController().signal });
  assert.ok(learnings.length >= 3, `${learnings.length} learnings`);
  const items = await db.extractedItem.findMany({ where: { id: { in: learnings.map((l) => l.id) } }, include: { queryPage: true } });
  assert.equal(items.length, learnings.length, "every id is a stored item");
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const l of learnings) {
    const item = byId.get(l.id)!;
    assert.equal(item.content, l.content);
    assert.equal(item.url, l.url);
    assert.equal(item.queryPage.queryId, l.queryId);
  }
  const queries = await db.serpQuery.groupBy({ by: ["depth"], where: { researchId: scope.researchId }, _count: true, orderBy: { depth: "asc" } });
  assert.deepEqual(queries.map((g) => g._count), queriesPerLevel(2, 2));
  assert.ok(events.some((e) => e.type === "query.created") && events.some((e) => e.type === "item.extracted"));
  assert.ok(events.every((e) => e.researchId === scope.researchId));
  // No report and no status: those belong to the engine that called it.
  const research = await db.research.findUniqueOrThrow({ where: { id: scope.researchId } });
  assert.equal(research.report, null);
  assert.equal(research.status, "running");
  // Each call was recorded before it was sent and settled after: none left unsettled.
  assert.equal(research.llmCalls, fakes.llm.log.length - callsBefore, "every call counted, the plannings' too");
  assert.equal(research.llmCallsUnsettled, 0);
  // The queries' shares (their analyses, their children's planning) are within the research's total,
  // which also has the roots' planning.
  const shares = await db.serpQuery.findMany({ where: { researchId: scope.researchId } });
  assert.ok(shares.every((q) => q.promptTokens > 0), "every query has its share");
  assert.ok(research.promptTokens > shares.reduce((n, q) => n + q.promptTokens, 0));
});

test("exploring a finished tree again does no work and returns the same learnings", async () => {
  const before = fakes.llm.log.length;
  const first = await db.extractedItem.count({ where: { researchId: scope.researchId } });
  const { learnings } = await exploreTree({ scope, sink: collectingSink().sink, signal: new AbortController().signal });
  assert.equal(learnings.length, first);
  assert.equal(fakes.llm.log.length, before, "no LLM call");
});

test("an aborted exploration throws, leaves nothing in progress, and a second call finishes it", async () => {
  fakes.llm.configure({ latencyMs: 100 });
  const stopped = await newScope("Grid batteries in Spain", 2, 3);
  const controller = new AbortController();
  const exploring = exploreTree({ scope: stopped, sink: collectingSink().sink, signal: controller.signal });
  while ((await db.serpQuery.count({ where: { researchId: stopped.researchId, status: "completed" } })) < 1) await new Promise((r) => setTimeout(r, 50));
  controller.abort(new Error("stop"));
  await assert.rejects(exploring);
  assert.equal((await db.research.findUniqueOrThrow({ where: { id: stopped.researchId } })).llmCallsUnsettled, 0, "the calls the abort cut short are settled too");
  const unfinished = await db.serpQuery.count({ where: { researchId: stopped.researchId, status: { in: ["pending", "searching", "scraping", "analyzing"] } } });
  assert.equal(unfinished, 0);

  // The caller reopens what was stopped (as a resume does) and explores again.
  const store = await import("../db/tree");
  await db.research.update({ where: { id: stopped.researchId }, data: { status: "failed" } });
  assert.equal(await store.reopenForResume(stopped.researchId), true);
  const { learnings } = await exploreTree({ scope: stopped, sink: collectingSink().sink, signal: new AbortController().signal });
  const queries = await db.serpQuery.findMany({ where: { researchId: stopped.researchId } });
  assert.ok(queries.every((q) => q.status === "completed"));
  assert.equal(queries.length, queriesPerLevel(2, 3).reduce((a, b) => a + b, 0));
  assert.equal(learnings.length, new Set(learnings.map((l) => l.id)).size);
  fakes.llm.configure({ latencyMs: 0 });
});

test("a branch whose follow-up planning fails is planned again later, and the tree completes", async () => {
  // The roots are planned; then the first two attempts at one branch's children fail (its reads propose no
  // follow-ups, so that the Query Generator plans the children).
  fakes.llm.configure({ readFollowUps: false, agentFailures: [{ agent: "query-generator", status: 500, skip: 1, times: 2 }] });
  const flaky = await newScope("Tidal power in Scotland", 2, 2);
  const { events, sink } = collectingSink();
  await exploreTree({ scope: flaky, sink, signal: new AbortController().signal });
  const counts = await db.serpQuery.groupBy({ by: ["depth"], where: { researchId: flaky.researchId }, _count: true, orderBy: { depth: "asc" } });
  assert.deepEqual(counts.map((g) => g._count), queriesPerLevel(2, 2), "every branch got its children");
  assert.equal(fakes.llm.log.filter((e) => e.agent === "query-generator" && e.status === 500).length, 2);
  assert.deepEqual(JSON.parse((await db.research.findUniqueOrThrow({ where: { id: flaky.researchId } })).warnings), []);
  assert.ok(events.length > 0);
  fakes.reset();
});

test("a branch whose planning keeps failing ends with a warning; the exploration still completes", async () => {
  // Each of the two branches fails its try and both retries (its reads propose no follow-ups).
  fakes.llm.configure({ readFollowUps: false, agentFailures: [{ agent: "query-generator", status: 500, skip: 1, times: 6 }] });
  const stuck = await newScope("Wave power in Portugal", 2, 2);
  await exploreTree({ scope: stuck, sink: collectingSink().sink, signal: new AbortController().signal });
  const queries = await db.serpQuery.findMany({ where: { researchId: stuck.researchId } });
  assert.equal(queries.length, 2, "the roots, and no children");
  assert.ok(queries.every((q) => q.status === "completed" && !q.childrenGenerated), "both branches are left for a resume to plan");
  assert.equal(fakes.llm.log.filter((e) => e.agent === "query-generator" && e.status === 500).length, 6);
  const warnings = JSON.parse((await db.research.findUniqueOrThrow({ where: { id: stuck.researchId } })).warnings) as string[];
  assert.equal(warnings.length, 2);
  assert.equal((await db.research.findUniqueOrThrow({ where: { id: stuck.researchId } })).llmCallsUnsettled, 0, "failed calls are settled (with no usage)");
  for (const q of queries) assert.ok(warnings.some((w) => w.includes(`Could not plan the follow-up queries of "${q.text}"`) && /Resume the research to try again/.test(w)));
  fakes.reset();
});

test("a scope's analysis concurrency lets one query analyse that many pages at once", async () => {
  // Each analysis takes 150 ms at the fake: with one at a time, no two of a query's start within 100 ms.
  fakes.llm.configure({ latencyMs: 150 });
  const maxOverlap = async (analyzeConcurrency?: number) => {
    const s = { ...(await newScope(`Analysis concurrency ${analyzeConcurrency ?? "default"}`, 1, 1)), analyzeConcurrency };
    const from = fakes.llm.log.length;
    await exploreTree({ scope: s, sink: collectingSink().sink, signal: new AbortController().signal });
    const starts = fakes.llm.log.slice(from).filter((e) => e.agent === "website-analyzer").map((e) => e.at).sort((a, b) => a - b);
    assert.ok(starts.length >= 3, `${starts.length} analyses`);
    return Math.max(...starts.map((t) => starts.filter((u) => u >= t && u - t < 100).length));
  };
  try {
    // One at a time first: its successes also restore the adaptive LLM limit lowered by the test before.
    assert.equal(await maxOverlap(1), 1, "one at a time when the scope says 1");
    assert.ok((await maxOverlap()) >= 2, "ANALYZE_CONCURRENCY_PER_QUERY (7) by default: several analyses of the query in flight at once");
  } finally {
    fakes.llm.configure({ latencyMs: 0 });
  }
});

test("each query's row of a page shows the page being fetched, then fetched, before its analysis; pages shared by queries too", async () => {
  const s = await newScope("Page events per row", 2, 3);
  const rows: { type: string; id: string; status: string }[] = [];
  const sink = {
    emit: (_topic: Topic, event: { type: string; data?: unknown }) => {
      if (event.type === "page.status" || event.type === "item.extracted") {
        const data = event.data as { id: string; status: string };
        rows.push({ type: event.type, id: data.id, status: data.status });
      }
    },
  };
  await exploreTree({ scope: s, sink, signal: new AbortController().signal });
  const analysed = rows.filter((r) => r.type === "item.extracted" && r.status === "analyzed");
  assert.ok(analysed.length >= 6, `${analysed.length} analyses`);
  for (const done of analysed) {
    const before = rows.slice(0, rows.indexOf(done)).filter((r) => r.id === done.id).map((r) => r.status);
    assert.equal(before.at(-1), "scraped", `${done.id}: ${before.join(" → ")}`);
  }
  // Rows that waited for a fetch showed it in progress; pages are shared by several queries' rows here.
  assert.ok(rows.some((r) => r.status === "scraping"), "some rows showed their page being fetched");
  const pagesOf = new Map<string, Set<string>>();
  for (const r of analysed) {
    const [query, page] = r.id.split(":");
    pagesOf.set(page, (pagesOf.get(page) ?? new Set()).add(query));
  }
  assert.ok([...pagesOf.values()].some((queries) => queries.size > 1), "a page analysed for more than one query");
});

test("queries created in the same millisecond under two parents: the coordinator's, the lean and the full views list them in one order", async () => {
  const research = await db.research.create({ data: { initialPrompt: "p", status: "running", depth: 2, breadth: 2 } });
  const base = { researchId: research.id, objective: "o", levelBreadth: 2 };
  const a = await db.serpQuery.create({ data: { ...base, id: "order-parent-a", depth: 1, position: 0, text: "A" } });
  const b = await db.serpQuery.create({ data: { ...base, id: "order-parent-b", depth: 1, position: 1, text: "B" } });
  // B's children first, all at one instant: (depth, createdAt, position) alone would leave A's and B's tied.
  const at = new Date();
  for (const [parent, position] of [[b, 0], [b, 1], [a, 0], [a, 1]] as const) {
    await db.serpQuery.create({ data: { ...base, depth: 2, position, text: `${parent.text}${position}`, parentId: parent.id, createdAt: at } });
  }
  const expected = ["A", "B", "A0", "A1", "B0", "B1"];
  const { loadResearchGraph, loadResearchStatusRows } = await import("../db/research");
  const store = await import("../db/tree");
  const { toResearchView } = await import("./public-shape");
  assert.deepEqual((await store.queriesOf(research.id)).map((q) => q.text), expected);
  assert.deepEqual((await loadResearchStatusRows({ id: research.id }))!.queries.map((q) => q.text), expected);
  assert.deepEqual(toResearchView((await loadResearchGraph({ id: research.id }))!).serp_queries.map((q) => q.text), expected);
  const textOf = new Map((await store.queriesOf(research.id)).map((q) => [q.id, q.text]));
  assert.deepEqual((await store.queriesWithWork(research.id, 2, ["pending"])).map((id) => textOf.get(id)), expected);
});
