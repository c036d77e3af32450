// A page goes to the model once per research (issue 57): the queries waiting for it share one read, each
// getting the items tagged with its own handle; a query that reaches it later chooses from what that read
// extracted, without the page being sent again (unless its read began a moment ago: it reads the page too, a
// hedged read); a reply's handles that name no query are resolved or dropped.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";
import { pageAnalyses } from "../../test/helpers/research";

await useTestDatabase();
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { SCRAPE_TIMEOUT_MS: "5000", LLM_RETRY_BUDGET_MS: "0" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { getEnv } = await import("../env");
const { RunContext } = await import("./context");
const { exploreTree } = await import("./explore");
const { readSchema, selectItems } = await import("../agents/analyze-website");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});

const sink = { emit: () => {} };
const PAGE = [
  "Installed battery capacity in the region reached 4.2 GW in 2024, more than double the 1.9 GW of a year earlier.",
  "The average price of a four-hour system fell to 238 dollars per kilowatt-hour, a drop of 19 percent in one year.",
  "Round-trip efficiency of the surveyed fleet averaged 86 percent, with auxiliary cooling the main loss in 41 sites.",
  "A unique filler line that only the page itself carries, about lighthouses and tides, never an item.",
  "Developers report that grid connection queues delay the typical project by 22 months across 12 countries.",
].join("\n");
const page = { url: "https://w.example/batteries", status: "scraped" as const, title: "Batteries", content: PAGE, error: null };

async function newContext(prompt: string) {
  const research = await db.research.create({ data: { initialPrompt: prompt, status: "running", depth: 1, breadth: 3 } });
  return new RunContext({ researchId: research.id, prompt, qa: [], depth: 1, breadth: 3 }, getEnv(), sink, new AbortController().signal);
}

const request = (ctx: InstanceType<typeof RunContext>, n: number, objective: string) => ({ queryId: `q${n}`, objective, query: `battery query ${n}`, depth: 1, ctx });
const calls = (from: number, agent: string) => fakes.llm.log.slice(from).filter((e) => e.agent === agent);
const sent = (e: { messages: { content: unknown }[] }) => e.messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n");

test("the queries waiting for a page share one read: one call for several objectives, each item attributed to the queries it serves", async () => {
  const ctx = await newContext("Grid batteries");
  const from = fakes.llm.log.length;
  const outcomes = await Promise.all([
    ctx.pageReads.serve("p1", page, request(ctx, 1, "Installed capacity in GW")),
    ctx.pageReads.serve("p1", page, request(ctx, 2, "Prices per kilowatt-hour")),
    ctx.pageReads.serve("p1", page, request(ctx, 3, "Efficiency of the fleet")),
  ]);
  const reads = calls(from, "website-analyzer");
  assert.equal(reads.length, 1, "one call for the three queries");
  assert.match(sent(reads[0]), /<query id="Q1"[^>]*>\s*Installed capacity in GW/);
  assert.match(sent(reads[0]), /<query id="Q3"[^>]*>\s*Efficiency of the fleet/);
  const reply = JSON.parse(reads[0].reply!) as { items: { content: string; queries: string[] }[] };
  outcomes.forEach((outcome, i) => {
    assert.equal(outcome.kind, "read");
    const mine = reply.items.filter((item) => item.queries.includes(`Q${i + 1}`)).map((item) => item.content);
    assert.deepEqual(outcome.items, mine, `query ${i + 1} gets the items tagged with its handle`);
    assert.ok(outcome.items.length > 0);
    for (const item of outcome.items) assert.ok(PAGE.includes(item));
  });
  // The read's tokens are shared by the queries it served, and its call is settled.
  const shares = [1, 2, 3].map((n) => ctx.takeQueryTokens(`q${n}`)?.promptTokens ?? 0);
  assert.ok(shares.every((t) => t > 0));
  assert.equal(shares.reduce((a, b) => a + b, 0), reads[0].promptTokens);
  const research = await db.research.findUniqueOrThrow({ where: { id: ctx.id } });
  assert.equal(research.llmCalls, 1);
  assert.equal(research.llmCallsUnsettled, 0);
});

test("queue mode: a query whose work is no longer this process's (its job's lock lost) is not served by a read that goes out: it is told, the others read", async () => {
  const { withOwnership } = await import("../ownership");
  const ctx = await newContext("Grid batteries");
  const from = fakes.llm.log.length;
  const lost = new Error("Job node-q2 lost its lock");
  const [kept, dropped] = await Promise.allSettled([
    withOwnership(() => {}, () => ctx.pageReads.serve("p1", page, request(ctx, 1, "Installed capacity in GW"))),
    withOwnership(() => {
      throw lost;
    }, () => ctx.pageReads.serve("p1", page, request(ctx, 2, "Prices per kilowatt-hour"))),
  ]);
  assert.equal(kept.status, "fulfilled");
  assert.deepEqual(dropped, { status: "rejected", reason: lost });
  const reads = calls(from, "website-analyzer");
  assert.equal(reads.length, 1);
  assert.match(sent(reads[0]), /Installed capacity in GW/);
  assert.ok(!sent(reads[0]).includes("Prices per kilowatt-hour"), "the lost query's objective is not sent");
});

test("queue mode: a query whose lock is lost after its read's batch formed (a worker stopped before the call went out) is not sent: it is told, the others read without it", async () => {
  const { withOwnership } = await import("../ownership");
  const { OwnershipLostError } = await import("../errors");
  const ctx = await newContext("Grid batteries");
  const from = fakes.llm.log.length;
  const lost = new OwnershipLostError("Job node-q2 lost its lock");
  // Held when the batch forms; lost when the call is about to go out.
  let asked = 0;
  const [kept, dropped] = await Promise.allSettled([
    withOwnership(() => {}, () => ctx.pageReads.serve("p1", page, request(ctx, 1, "Installed capacity in GW"))),
    withOwnership(() => {
      if (++asked > 1) throw lost;
    }, () => ctx.pageReads.serve("p1", page, request(ctx, 2, "Prices per kilowatt-hour"))),
  ]);
  assert.equal(kept.status, "fulfilled");
  assert.deepEqual(dropped, { status: "rejected", reason: lost });
  const reads = calls(from, "website-analyzer");
  assert.equal(reads.length, 1, "the call that named the lost query never went out");
  assert.match(sent(reads[0]), /Installed capacity in GW/);
  assert.ok(!sent(reads[0]).includes("Prices per kilowatt-hour"), "the lost query's objective is not sent");
});

test("a query that reaches the page after its read gets what the read extracted, and chooses from it without the page being sent again", async () => {
  const ctx = await newContext("Grid batteries again");
  const from = fakes.llm.log.length;
  const first = await ctx.pageReads.serve("p1", page, request(ctx, 1, "Installed capacity in GW"));
  assert.equal(first.kind, "read");
  const later = await ctx.pageReads.serve("p1", page, request(ctx, 2, "Connection queues and delays"));
  assert.equal(later.kind, "reuse");
  assert.equal(calls(from, "website-analyzer").length, 1, "the page is not read again");
  const reply = JSON.parse(calls(from, "website-analyzer")[0].reply!) as { items: { content: string }[] };
  assert.deepEqual(later.items, reply.items.map((i) => i.content), "every item the read extracted, those tagged with no query too");
  const chosen = await selectItems({ objective: "Connection queues and delays", query: "battery query 2", pages: [{ url: page.url, title: page.title, items: later.items }] });
  const selections = calls(from, "item-selector");
  assert.equal(selections.length, 1);
  assert.ok(!sent(selections[0]).includes("lighthouses and tides"), "the page is not in the selection's prompt");
  assert.ok(selections[0].promptTokens < calls(from, "website-analyzer")[0].promptTokens, "the selection costs less than the read");
  assert.equal(chosen.length, 1);
  assert.ok(chosen[0].length > 0 && chosen[0].every((i) => i >= 0 && i < later.items.length));
});

test("a reply's query handles: near-misses resolved to the query, a handle that names none dropped", () => {
  const parsed = readSchema(2).parse({
    items: [
      { content: "Capacity reached 4.2 GW.", queries: ["q1", "Query 2", "Q9"] },
      { content: "Prices fell 19 percent.", queries: "[Q2]" },
      { content: "Efficiency averaged 86 percent.", queries: ["Q7"] },
    ],
  });
  assert.deepEqual(parsed.items.map((i) => i.queries), [["Q1", "Q2"], ["Q2"], []]);
});

/** Three queries reaching the page: at once, 30 ms later (within a hedge's window), and `lateMs` after the first. */
async function threeArrivals(ctx: InstanceType<typeof RunContext>, pageId: string, lateMs: number) {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const first = ctx.pageReads.serve(pageId, page, request(ctx, 1, "Installed capacity in GW"));
  await sleep(30);
  const hedged = ctx.pageReads.serve(pageId, page, request(ctx, 2, "Prices per kilowatt-hour"));
  await sleep(lateMs - 30);
  const late = ctx.pageReads.serve(pageId, page, request(ctx, 3, "Efficiency of the fleet"));
  return Promise.all([first, hedged, late]);
}

test("a query reaching a page whose read began a moment ago reads it too (a hedged read); one reaching it late in the read waits and chooses", async () => {
  const ctx = await newContext("Grid batteries, hedged");
  fakes.llm.configure({ latencyMs: 400 });
  try {
    // One read measured first: how long a read takes here.
    await ctx.pageReads.serve("h0", page, request(ctx, 1, "Installed capacity in GW"));
    const from = fakes.llm.log.length;
    // The second 30 ms into a ~400 ms read: waiting and then choosing would take longer than reading.
    // The third when most of the reads are done: it waits for them and chooses from their items.
    const [a, b, c] = await threeArrivals(ctx, "h1", 330);
    assert.equal(a.kind, "read");
    assert.equal(b.kind, "read", "the second query read the page itself");
    assert.equal(c.kind, "reuse", "the third chose from what the reads extracted");
    assert.equal(calls(from, "website-analyzer").length, 2, "two reads of the page: the first and the hedged one");
    // The late query chooses from both reads' items.
    for (const item of [...a.items, ...b.items]) assert.ok(c.items.includes(item), `${item} offered to the later query`);
  } finally {
    fakes.llm.configure({ latencyMs: 0 });
  }
});

test("a read that fails while a hedged read of the page is under way: its queries and those waiting for it join the hedged read, none reads again or loses the page", async () => {
  const ctx = await newContext("Grid batteries, a failed read");
  fakes.llm.configure({ latencyMs: 800 });
  try {
    await ctx.pageReads.serve("f0", page, request(ctx, 1, "Installed capacity in GW"));
    // The next read fails 600 ms after it went out (the hedged one, 30 ms later, does not).
    fakes.llm.configure({ agentFailures: [{ agent: "website-analyzer", status: 400, skip: 0, times: 1, afterMs: 600 }] });
    const from = fakes.llm.log.length;
    // The third past half of a read: it waits for the first read, which then fails.
    const [a, b, c] = await threeArrivals(ctx, "f1", 500);
    assert.equal(b.kind, "read", "the hedged read served its query");
    assert.equal(a.kind, "reuse", "the failed read's query chose from the hedged read's items");
    assert.equal(c.kind, "reuse", "the query waiting for the failed read chose from the hedged read's items");
    assert.deepEqual(a.items, c.items);
    for (const item of b.items) assert.ok(a.items.includes(item));
    const reads = calls(from, "website-analyzer");
    assert.deepEqual(reads.map((e) => e.status), [400, 200], "the failed read and the hedged one: no third read");
  } finally {
    fakes.llm.configure({ latencyMs: 0, agentFailures: [] });
  }
});

test("a misbehaving model retyping the handles: the items still reach their queries", async () => {
  const ctx = await newContext("Grid batteries, retyped");
  fakes.llm.configure({ misbehave: "retyped" });
  try {
    const from = fakes.llm.log.length;
    const outcomes = await Promise.all([
      ctx.pageReads.serve("p1", page, request(ctx, 1, "Installed capacity in GW")),
      ctx.pageReads.serve("p1", page, request(ctx, 2, "Prices per kilowatt-hour")),
    ]);
    const [read] = calls(from, "website-analyzer");
    assert.ok(read.misbehaved, "the reply was retyped");
    assert.ok(outcomes.every((o) => o.kind === "read" && o.items.length > 0), "each query got its items");
  } finally {
    fakes.llm.configure({ misbehave: null });
  }
});

test("in a tree, each page is read once, later queries choose from its items, and every item is attributed to its query and page", async () => {
  const research = await db.research.create({ data: { initialPrompt: "Heat pumps in cold climates", status: "running", depth: 2, breadth: 3 } });
  const from = fakes.llm.log.length;
  await exploreTree({ scope: { researchId: research.id, prompt: research.initialPrompt, qa: [], depth: 2, breadth: 3 }, sink, signal: new AbortController().signal });
  const scraped = await db.page.count({ where: { researchId: research.id, status: "scraped" } });
  const queries = await db.serpQuery.count({ where: { researchId: research.id } });
  // One read per page, or more for a page a query reached just after its read went out (a hedged read):
  // never a page read twice for the same query.
  assert.ok(calls(from, "website-analyzer").length >= scraped, "every scraped page read");
  const analyses = pageAnalyses(fakes.llm.log.slice(from));
  assert.equal(analyses.length, new Set(analyses).size, "no page analysed twice for a query");
  assert.ok(calls(from, "item-selector").length <= queries, "at most one selection per query");
  const links = await db.queryPage.findMany({ where: { query: { researchId: research.id } }, include: { page: true, items: true } });
  assert.ok(links.filter((l) => l.page.status === "scraped").every((l) => l.status === "analyzed"));
  const items = links.flatMap((l) => l.items.map((i) => ({ item: i, link: l })));
  assert.ok(items.length >= queries, `${items.length} items`);
  for (const { item, link } of items) {
    assert.equal(item.url, link.page.url, "the item's URL is its page's");
    assert.ok((link.page.content ?? "").replace(/\s+/g, " ").includes(item.content.replace(/\s+/g, " ")), "the item is on its own page");
  }
  assert.ok(new Set(items.map((i) => i.link.queryId)).size > 1, "items on several queries");
});

test("a query's children are planned beside its selection call, from every item it could choose from, not one LLM round after it", async () => {
  const research = await db.research.create({ data: { initialPrompt: "Heat pumps in cold climates, planned early", status: "running", depth: 3, breadth: 3 } });
  const from = fakes.llm.log.length;
  // Selections slow: a planning that waited for its query's selection would start after it ended. Reads
  // propose no follow-ups: the children are planned by the Query Generator (the path checked here).
  fakes.llm.configure({ readFollowUps: false, latencyRules: [{ match: "item-selector agent", latencyMs: 1_500 }] });
  try {
    await exploreTree({ scope: { researchId: research.id, prompt: research.initialPrompt, qa: [], depth: 3, breadth: 3 }, sink, signal: new AbortController().signal });
  } finally {
    fakes.llm.configure({ readFollowUps: true, latencyRules: [] });
  }
  const queries = await db.serpQuery.findMany({ where: { researchId: research.id }, include: { children: { select: { id: true } } } });
  const log = fakes.llm.log.slice(from);
  const mentions = (e: (typeof log)[number], text: string) => sent(e).includes(text);
  let checked = 0;
  for (const q of queries.filter((x) => x.children.length > 0)) {
    const selection = log.find((e) => e.agent === "item-selector" && mentions(e, `<search_query>\n${q.text}\n</search_query>`));
    if (!selection) continue;
    // Its children's planning: the call with it as the parent.
    const planning = log.find((e) => e.agent === "query-generator" && mentions(e, `<query level="parent">\nQuery: ${q.text}\n`))!;
    assert.ok(planning.at < selection.endedAt!, `"${q.text}": planned ${selection.endedAt! - planning.at} ms before its selection ended`);
    // The candidates the selection chose from are in the planning's prompt.
    const candidate = /N1: ([^\n<]{20,})/.exec(sent(selection))?.[1];
    assert.ok(candidate, "the selection's first item");
    assert.ok(mentions(planning, candidate!.slice(0, 40)), "the planning saw the items being chosen from");
    checked++;
  }
  assert.ok(checked > 0, "some query with children chose from another query's read");
});

test("a query's children are the follow-up searches its reads proposed: no planning call after its reads", async () => {
  const research = await db.research.create({ data: { initialPrompt: "Tidal lagoons in Wales, planned by the readers", status: "running", depth: 2, breadth: 3 } });
  const from = fakes.llm.log.length;
  fakes.llm.configure({ latencyMs: 100 });
  try {
    await exploreTree({ scope: { researchId: research.id, prompt: research.initialPrompt, qa: [], depth: 2, breadth: 3 }, sink, signal: new AbortController().signal });
  } finally {
    fakes.llm.configure({ latencyMs: 0 });
  }
  const log = fakes.llm.log.slice(from);
  const roots = await db.serpQuery.findMany({ where: { researchId: research.id, depth: 1 }, include: { children: true }, orderBy: { position: "asc" } });
  assert.equal(roots.length, 3);
  for (const root of roots) {
    assert.equal(root.children.length, 2, "ceil(3 / 2) children");
    // The reads of the root's pages asked for two follow-ups for it, and its children are what they proposed.
    const reads = log.filter((e) => e.agent === "website-analyzer" && new RegExp(`<query id="(Q\\d+)" search="${root.text}" follow_ups="2">`).test(sent(e)));
    assert.ok(reads.length > 0, `"${root.text}" took part in a read`);
    const proposed = reads.flatMap((e) => {
      const id = new RegExp(`<query id="(Q\\d+)" search="${root.text}"`).exec(sent(e))![1];
      return (JSON.parse(e.reply!) as { follow_ups: Record<string, string[]> }).follow_ups[id];
    });
    for (const child of root.children) assert.ok(proposed.includes(child.text), `"${child.text}" was proposed by a read`);
    // Its children's searches went out within a fraction of an LLM round of its completion.
    const firstChild = Math.min(...root.children.map((c) => c.startedAt!.getTime()));
    assert.ok(firstChild - root.completedAt!.getTime() < 80, `children started ${firstChild - root.completedAt!.getTime()} ms after their parent completed (an LLM round is 100 ms)`);
  }
  assert.equal(log.filter((e) => e.agent === "query-generator").length, 1, "only the roots were planned by the Query Generator");
  // The leaves' reads asked for none.
  const leaves = log.filter((e) => e.agent === "website-analyzer").flatMap((e) => [...sent(e).matchAll(/<query id="Q\d+" search="[^"]*aspect \d+\.\d+"([^>]*)>/g)].map((m) => m[1]));
  assert.ok(leaves.length > 0);
  assert.ok(leaves.every((attrs) => !attrs.includes("follow_ups")));
});

test("follow-ups as models write them: a near-miss of a query's id resolved, one naming no query asked or in another shape dropped, never the items", () => {
  const parsed = readSchema(3, [0, 1]).parse({
    items: [{ content: "Capacity reached 4.2 GW.", queries: ["Q1"] }],
    follow_ups: { q2: ["grid battery fire codes 2024", { query: "battery fire incidents Arizona" }], "Query 1": "battery prices per kWh Europe", Q3: ["not asked"], Q9: ["unrelated"] },
  });
  assert.deepEqual(parsed.items.map((i) => i.queries), [["Q1"]]);
  assert.deepEqual(parsed.follow_ups, { Q1: ["battery prices per kWh Europe"], Q2: ["grid battery fire codes 2024", "battery fire incidents Arizona"] });
  const entries = readSchema(2, [0]).parse({ items: [], follow_ups: [{ for: "Q1", query: "tidal lagoon costs" }, { for: "Q2", query: "not asked" }, "a bare text"] });
  assert.deepEqual(entries.follow_ups, { Q1: ["tidal lagoon costs"] }, "a list of entries naming their query, as the old shape");
  assert.deepEqual(readSchema(1, [0]).parse({ items: [], follow_ups: "none" }).follow_ups, { Q1: [] });
  assert.deepEqual(readSchema(1, [0]).parse({ items: [] }).follow_ups, { Q1: [] }, "left out: none");
});
