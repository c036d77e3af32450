// A research restricted to one collection: with no web search configured at all (offline), its
// queries search that collection only, it reads the passages from the database, and its report cites
// only that collection's documents, each with its page; another user's collection cannot be named.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { splitNumberedSources } from "@/lib/report-citations";
import { appPathOfSource, parseKnowledgeSourceUrl } from "@/lib/knowledge/source-url";
import { buildPdfPages, startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestUser, signInSession } from "../helpers/auth";
import { waitForStatus } from "../helpers/research";
import { askAndWait } from "../helpers/answer";
import { conversation, pollUntilDone, startDr } from "../helpers/deep-research";

let fakes: Fakes;
let app: TestApp;
before(async () => {
  fakes = await startFakes();
  // No SearXNG: a collections-only research must not need one.
  app = await TestApp.start({ name: "knowledge-research", env: { ...fakes.env, SEARXNG_URL: "", LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "2" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

async function collectionWith(name: string, files: Array<[string, Uint8Array]>): Promise<string> {
  const res = await app.postJson("/api/collections", { name });
  const id = ((await res.json()) as { collection: { id: string } }).collection.id;
  for (const [file, bytes] of files) {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)]), file);
    const up = await app.fetch(`/api/collections/${id}/documents`, { method: "POST", body: form });
    assert.equal(up.status, 201, await up.clone().text());
  }
  return id;
}

const para = (s: string) => `${s} Grid-scale battery storage economics depend on cycle life, capital cost and the price spread between cheap and expensive hours.`;

test("a research on one collection cites only its documents, with page numbers, and never searches the web", async () => {
  const chosen = await collectionWith("Battery papers", [
    ["storage.pdf", buildPdfPages({ title: "Storage study", pages: [[para("Lithium iron phosphate packs reached 6000 cycles in the field trial.")], [para("Battery storage capital cost fell to 180 dollars per kilowatt-hour in 2024.")]] })],
  ]);
  const other = await collectionWith("Other papers", [["other.md", new TextEncoder().encode(`# Other\n\n${para("Pumped hydro storage remains the cheapest long-duration option.")}`)]]);

  const start = await app.postJson("/api/research/start", {
    initial_prompt: "Grid-scale battery storage economics",
    followup_answers: [],
    depth: 1,
    breadth: 2,
    sources: { web: false, collections: [chosen] },
  });
  assert.equal(start.status, 202, await start.clone().text());
  const { research_id } = (await start.json()) as { research_id: string };
  const view = await waitForStatus(app, research_id, ["completed", "failed"]);
  assert.equal(view.status, "completed", JSON.stringify(view).slice(0, 500));

  const { sources } = splitNumberedSources(view.report!);
  assert.ok(sources.length >= 1, "the report cites the collection");
  for (const s of sources) {
    const ref = parseKnowledgeSourceUrl(s.url);
    assert.ok(ref, `only knowledge-base sources: ${s.url}`);
    assert.equal(ref.collectionId, chosen, "only the chosen collection");
    assert.notEqual(ref.collectionId, other);
    assert.ok(ref.page === 1 || ref.page === 2, "with its page");
    assert.match(s.title, /storage\.pdf\), p\. [12]$/, "the citation names the document and the page");
  }
  assert.equal(fakes.search.log.length, 0, "the web was never searched");

  // The citation opens the document view at its passage, highlighted.
  const cookie = await signInSession(app.url, app.user.email, app.user.password);
  const ref = parseKnowledgeSourceUrl(sources[0].url)!;
  const passage = (await app.db.knowledgeChunk.findUniqueOrThrow({ where: { id: ref.chunkId } })).text;
  const page = await fetch(`${app.url}${appPathOfSource(sources[0].url)}`, { headers: { cookie } });
  assert.equal(page.status, 200);
  const html = await page.text();
  const marked = /<mark[^>]*data-testid="cited-passage"[^>]*>([\s\S]*?)<\/mark>/.exec(html);
  assert.ok(marked, "the cited passage is highlighted");
  assert.ok(marked[1].includes(passage.slice(0, 40).replace(/'/g, "&#x27;")), "the highlighted passage is the cited one");
});

test("a re-run and a follow-up of a collections-only research search the same collection, and still never the web", async () => {
  const chosen = await collectionWith("Rerun papers", [
    ["cycles.md", new TextEncoder().encode(`# Cycles\n\n${para("Sodium-ion cells kept 90 percent of capacity after 4000 cycles.")}`)],
  ]);
  const start = await app.postJson("/api/research/start", {
    initial_prompt: "Sodium-ion battery cycle life",
    followup_answers: [],
    depth: 1,
    breadth: 1,
    sources: { web: false, collections: [chosen] },
  });
  assert.equal(start.status, 202, await start.clone().text());
  const { research_id } = (await start.json()) as { research_id: string };
  assert.equal((await waitForStatus(app, research_id, ["completed", "failed"])).status, "completed");
  const searchesBefore = fakes.search.log.length;

  // No SearXNG is configured: a copy that searched the web could not even start.
  const rerun = await app.postJson(`/api/research/${research_id}/rerun`, {});
  assert.equal(rerun.status, 202, await rerun.clone().text());
  const followUp = await app.postJson(`/api/research/${research_id}/follow-up`, { question: "Which cells last longest?", depth: 1, breadth: 1 });
  assert.equal(followUp.status, 202, await followUp.clone().text());
  for (const res of [rerun, followUp]) {
    const id = ((await res.json()) as { research_id: string }).research_id;
    const row = await app.db.research.findUniqueOrThrow({ where: { id } });
    assert.deepEqual(JSON.parse(row.sources ?? "null"), { web: false, collections: [chosen] }, "the original's sources");
    const view = await waitForStatus(app, id, ["completed", "failed"]);
    assert.equal(view.status, "completed", view.error ?? "");
    const cited = splitNumberedSources(view.report!).sources;
    assert.ok(cited.length >= 1 && cited.every((c) => parseKnowledgeSourceUrl(c.url)?.collectionId === chosen), "cites only the collection");
  }
  assert.equal(fakes.search.log.length, searchesBefore, "the web was never searched");
});

test("the answer agent on one collection reads and quotes only that collection's passages", async () => {
  const chosen = await collectionWith("Grid notes", [
    ["grid.pdf", buildPdfPages({ title: "Grid report", pages: [[para("Grid batteries added 42 gigawatt-hours of storage in 2024, a record year.")]] })],
  ]);
  const { stored } = await askAndWait(app, { q: "How much storage did grid batteries add in 2024?", sources: { web: false, collections: [chosen] } });
  assert.equal(stored.status, "completed", stored.error ?? "");
  assert.ok(stored.readURLs.length > 0, "it read passages");
  assert.ok(stored.references.length > 0, "it cites a passage");
  for (const url of [...stored.readURLs, ...stored.references.map((r) => r.url)]) {
    assert.equal(parseKnowledgeSourceUrl(url)?.collectionId, chosen, `only the chosen collection: ${url}`);
  }
  for (const ref of stored.references) {
    const chunk = await app.db.knowledgeChunk.findUniqueOrThrow({ where: { id: parseKnowledgeSourceUrl(ref.url)!.chunkId } });
    assert.ok(chunk.text.replace(/\s+/g, " ").includes(ref.exactQuote.replace(/\s+/g, " ").slice(0, 40)), "the quote is in the cited passage");
  }
  assert.equal(fakes.search.log.length, 0, "the web was never searched");
});

test("Deep Research's literature tasks search only the conversation's collection", async () => {
  const chosen = await collectionWith("Solid-state papers", [
    ["solid.pdf", buildPdfPages({ title: "Solid-state batteries", pages: [[para("Solid-state batteries for grid storage promise higher energy density and fewer fires.")]] })],
  ]);
  const start = await startDr(app, { message: "Solid-state batteries for grid storage", researchMode: "steering", sources: { web: false, collections: [chosen] } });
  const seen = await pollUntilDone(app, start.pollUrl);
  assert.equal(seen.at(-1)!.status, "completed");
  const { plan } = await conversation(app, start.conversationId);
  const trees = plan.filter((t) => t.type === "LITERATURE" && t.childResearchId).map((t) => t.childResearchId!);
  assert.ok(trees.length > 0, "a literature task ran");
  const pages = await app.db.page.findMany({ where: { researchId: { in: trees } }, select: { url: true, status: true } });
  assert.ok(pages.some((p) => p.status === "scraped"), "it read passages");
  for (const p of pages) assert.equal(parseKnowledgeSourceUrl(p.url)?.collectionId, chosen, `only the chosen collection: ${p.url}`);
  assert.equal(fakes.search.log.length, 0, "the web was never searched");
});

test("another user cannot name someone else's collection as a source (404)", async () => {
  const mine = await collectionWith("Private", [["p.txt", new TextEncoder().encode("Private battery notes.")]]);
  const bob = await createTestUser(app.db, { email: "bob-sources@test.local" });
  const res = await app.fetch("/api/research/start", {
    method: "POST",
    headers: { authorization: `Bearer ${bob.token}`, "content-type": "application/json" },
    body: JSON.stringify({ initial_prompt: "Battery notes", followup_answers: [], depth: 1, breadth: 1, sources: { web: false, collections: [mine] } }),
  });
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as { code: string }).code, "not_found:collection");
});
