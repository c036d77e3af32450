// The overlapping fixture web (bench, issue 57): a tree's queries share most of their results, as on the real web.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startFakes } from "./index";
import { FakeSearch } from "./search-server";
import { overlapWebPages, renderOverlapPage } from "./web-overlap";

/** The queries of a depth × breadth tree as the fake LLM names them (aspect 1, aspect 1.1, …). */
function treeQueries(depth: number, breadth: number, path = ""): string[] {
  return Array.from({ length: breadth }, (_, i) => {
    const p = path ? `${path}.${i + 1}` : `${i + 1}`;
    return [`overlap research aspect ${p}`, ...(depth > 1 ? treeQueries(depth - 1, Math.ceil(breadth / 2), p) : [])];
  }).flat();
}

test("22 pages, the same every time, facts on each, three long reads", () => {
  const pages = overlapWebPages(22);
  assert.deepEqual(pages, overlapWebPages(22));
  const sizes = pages.map((p) => renderOverlapPage(p, pages).length);
  assert.equal(sizes.filter((n) => n > 30_000).length, 3);
  for (const page of pages) assert.ok(page.facts.every((f) => renderOverlapPage(page, pages).includes(f.replace(/&/g, "&amp;"))), "the page states its facts");
});

test("the 110 queries of a (5, 5) reach about 20 distinct pages, most of them shared by many queries", () => {
  const search = new FakeSearch("http://web.example", { overlapWeb: 22, failingPageShare: 0 });
  const queries = treeQueries(5, 5);
  assert.equal(queries.length, 110);
  const reach = new Map<string, number>();
  for (const q of queries) for (const url of [...new Set(search.resultsFor(q).results.map((r) => r.url))].slice(0, 7)) reach.set(url, (reach.get(url) ?? 0) + 1);
  assert.ok(reach.size >= 18 && reach.size <= 22, `${reach.size} distinct pages`);
  assert.ok([...reach.values()].filter((n) => n >= 20).length >= 8, "the popular pages are read by many queries");
});

test("the web serves the overlapping pages the search finds", async () => {
  const fakes = await startFakes({ search: { overlapWeb: 22, failingPageShare: 0 }, web: { overlapWeb: 22 } });
  try {
    const body = (await (await fetch(`${fakes.search.url}/search?q=${encodeURIComponent("grid batteries")}&format=json`)).json()) as { results: { url: string }[] };
    assert.ok(body.results.length >= 7);
    for (const r of body.results) assert.match(new URL(r.url).pathname, /^\/overlap\/\d+-/);
    const page = await fetch(body.results[0].url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<article>/);
  } finally {
    await fakes.stop();
  }
});
