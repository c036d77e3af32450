// The large fixture web (bench): deterministic pages of real-world sizes, served and found by search.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startFakes } from "./index";
import { largeWebPages, renderLargePage } from "./web-large";

test("800 distinct pages, the same every time: ~90 KB median, some over 1 MB, a few slow", () => {
  const pages = largeWebPages(800);
  assert.deepEqual(pages, largeWebPages(800));
  assert.equal(new Set(pages.map((p) => p.path)).size, 800);
  const sizes = pages.map((p) => p.bytes).sort((a, b) => a - b);
  assert.ok(sizes[400] > 60_000 && sizes[400] < 130_000, `median ${sizes[400]}`);
  assert.equal(sizes.filter((b) => b > 1_000_000).length, 20);
  assert.equal(pages.filter((p) => p.slowMs > 0).length, 16);
  const heavy = pages.find((p) => p.bytes > 1_000_000)!;
  const html = renderLargePage(heavy, pages);
  assert.ok(Math.abs(html.length - heavy.bytes) < 2_000, `${html.length} vs ${heavy.bytes}`);
  for (const fact of heavy.facts) assert.ok(html.includes(fact), "the page states its facts");
});

test("search results come from the large web, and the web serves them", async () => {
  const fakes = await startFakes({ search: { largeWeb: 100, failingPageShare: 0 }, web: { largeWeb: 100 } });
  try {
    const urls = new Set<string>();
    for (const q of ["battery storage costs", "coral bleaching", "lead pipes"]) {
      const body = (await (await fetch(`${fakes.search.url}/search?q=${encodeURIComponent(q)}&format=json`)).json()) as { results: { url: string }[] };
      for (const r of body.results) urls.add(r.url);
    }
    assert.ok(urls.size >= 15, `only ${urls.size} distinct URLs over three queries`);
    for (const url of urls) assert.match(new URL(url).pathname, /^\/web\/\d+-/);
    const page = await fetch([...urls][0]);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<article>/);
  } finally {
    await fakes.stop();
  }
});
