// Issue 53, item 7: a collection of 1,000 documents on its Documents page, at 1440 and 390 px. The
// first page (50 rows) arrives in the HTML and shows in under 1 s; the page's HTML and JavaScript
// transfer under 300 KB on a cold load; nothing is wider than the window; axe (WCAG 2 A/AA) finds
// nothing serious; the collection's name is never under a button. A search finds a passage, marks the
// query's words and opens the document at it; sorting, paging and the status filter are the server's.
// The documents are written straight into the test database (1,000 uploads would take minutes).
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "./fixtures";
import { AUTH_FILE, sameOrigin, shot } from "./helpers";
import { createPrismaClient } from "../lib/db/create-client";
import { sortNameOf } from "../lib/db/sort-name";

const COUNT = 1_000;
const FAILED_EVERY = 50; // 20 failed documents
const NEEDLE = "bioluminescent fungi";
const WIDTHS = [1440, 390] as const;
const HTML_JS_BUDGET = 300 * 1024;
const FIRST_PAGE_BUDGET_MS = 1_000;
const FORMATS = ["pdf", "docx", "markdown", "html", "text"] as const;
const EXT: Record<string, string> = { pdf: "pdf", docx: "docx", markdown: "md", html: "html", text: "txt" };
const TOPICS = ["moss survey", "tidal records", "lichen growth", "soil samples", "river gauges", "bird counts", "weather station", "kelp transects"];

let collectionId = "";
const NAME = `Field archive, 1,000 documents from twelve survey seasons ${Date.now()}`;

test.beforeAll(async ({ request }) => {
  const created = await request.post("/api/collections", { data: { name: NAME }, headers: sameOrigin() });
  expect(created.status(), await created.text()).toBe(201);
  collectionId = ((await created.json()) as { collection: { id: string } }).collection.id;
  const db = createPrismaClient(process.env.DATABASE_URL ?? "file:./data/e2e/quarry.db");
  try {
    const start = Date.UTC(2025, 0, 1);
    const docs = Array.from({ length: COUNT }, (_, i) => {
      const format = FORMATS[i % FORMATS.length];
      const topic = TOPICS[i % TOPICS.length];
      const failed = i % FAILED_EVERY === FAILED_EVERY - 1;
      return {
        id: `scale-${collectionId}-${i}`,
        collectionId,
        name: `${String(i + 1).padStart(4, "0")} ${topic} ${2014 + (i % 12)}.${EXT[format]}`,
        // As the database layer writes it (lib/db/knowledge.ts).
        sortName: sortNameOf(`${String(i + 1).padStart(4, "0")} ${topic} ${2014 + (i % 12)}.${EXT[format]}`),
        title: format === "docx" || format === "pdf" ? `${topic[0].toUpperCase()}${topic.slice(1)}, season ${1 + (i % 12)}` : null,
        format,
        bytes: 2_000 + ((i * 7919) % 4_000_000),
        sha256: `scale-${i}`,
        content: Buffer.from(`seeded document ${i}`),
        status: failed ? "failed" : "ready",
        error: failed ? `"${String(i + 1).padStart(4, "0")} ${topic}.${EXT[format]}": the file is damaged and cannot be read.` : null,
        pageCount: format === "pdf" && !failed ? 1 + (i % 40) : null,
        chunkCount: failed ? 0 : 1,
        encoding: format === "text" ? (i % 3 === 0 ? "Windows-1252" : "UTF-8") : null,
        createdAt: new Date(start + i * 3_600_000),
      };
    });
    await db.knowledgeDocument.createMany({ data: docs });
    await db.knowledgeChunk.createMany({
      data: docs
        .filter((d) => d.status === "ready")
        .map((d, n) => ({
          documentId: d.id,
          collectionId,
          ordinal: 0,
          page: d.format === "pdf" ? 1 + (n % 5) : null,
          section: d.format === "pdf" ? null : `${d.title ?? "Notes"} › Findings`,
          text:
            n === 500
              ? `At the north waterfall we found ${NEEDLE} glowing green on fallen alder logs, a first for the valley.`
              : `Season notes on ${TOPICS[n % TOPICS.length]}: counts, dates and observers for site ${n % 37}.`,
        })),
    });
  } finally {
    await db.$disconnect();
  }
});

interface Transfer {
  url: string;
  type: string;
  encoded: number;
}

/** A cold first load of the Documents page at `width`: what it transfers, and when its first page of rows was in the DOM. */
async function coldLoad(browser: Browser, width: number): Promise<{ page: Page; close: () => Promise<void>; rows: Transfer[]; firstPageMs: number }> {
  const context = await browser.newContext({ storageState: AUTH_FILE, viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: "reduce" });
  // The moment the 50th row exists (the HTML's rows arrive with the document: usually at parse time).
  await page.addInitScript(() => {
    const w = window as unknown as { __rowsAt?: number };
    const check = () => {
      if (w.__rowsAt === undefined && document.querySelectorAll('[data-testid="document"]').length >= 50) w.__rowsAt = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", check);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const rows = new Map<string, Transfer>();
  cdp.on("Network.responseReceived", (e) => rows.set(e.requestId, { url: e.response.url, type: e.type, encoded: 0 }));
  cdp.on("Network.loadingFinished", (e) => {
    const r = rows.get(e.requestId);
    if (r) r.encoded = e.encodedDataLength;
  });
  const url = `/collections/${collectionId}`;
  await page.goto(url);
  await expect(page.getByTestId("document")).toHaveCount(50);
  await page.waitForLoadState("networkidle");
  const transfers = [...rows.values()];
  // The time to the first page, cold (the cache stays disabled), three times: the best is the page's
  // own cost; the others add what a loaded machine's scheduler adds (the CI machine runs 2 cores
  // shared with other suites).
  const times: { rows: number; firstByte: number }[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) {
      await page.goto(url);
      await expect(page.getByTestId("document")).toHaveCount(50);
    }
    times.push(
      await page.evaluate(() => ({
        rows: (window as unknown as { __rowsAt?: number }).__rowsAt ?? Number.NaN,
        firstByte: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).responseStart,
      })),
    );
  }
  const best = times.reduce((a, b) => (b.rows < a.rows ? b : a));
  console.log(`[documents] ${width} px: first page of rows at ${times.map((t) => `${Math.round(t.rows)} ms (first byte ${Math.round(t.firstByte)} ms)`).join(", ")}`);
  return { page, close: () => context.close(), rows: transfers, firstPageMs: best.rows };
}

const overflow = (page: Page) => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth);

/** Buttons (and button-like links) whose box overlaps the collection's name. */
const coveringTitle = (page: Page) =>
  page.evaluate(() => {
    const title = document.querySelector('[data-testid="collection-title"]')!.getBoundingClientRect();
    return [...document.querySelectorAll("button, a[class*='rounded-lg']")]
      .map((b) => ({ text: (b.textContent ?? "").trim(), r: b.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.left < title.right && r.right > title.left && r.top < title.bottom && r.bottom > title.top)
      .map(({ text }) => text);
  });

async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

for (const width of WIDTHS) {
  test(`a 1,000-document collection at ${width} px: light, fast, fits, accessible, searchable`, async ({ browser }) => {
    test.setTimeout(120_000);
    const { page, close, rows, firstPageMs } = await coldLoad(browser, width);
    try {
      // Weight: the page's HTML and JavaScript on a cold load (everything is logged).
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const htmlJs = rows.filter((r) => r.type === "Document" || r.type === "Script").reduce((n, r) => n + r.encoded, 0);
      const everything = rows.reduce((n, r) => n + r.encoded, 0);
      console.log(`[documents] ${width} px: HTML+JS ${kb(htmlJs)}, everything ${kb(everything)} in ${rows.length} responses; first page of rows in the DOM at ${Math.round(firstPageMs)} ms (best of 3)`);
      test.info().annotations.push({ type: `documents-${width}`, description: `html+js ${kb(htmlJs)}; everything ${kb(everything)}; first page ${Math.round(firstPageMs)} ms` });
      expect(htmlJs, "HTML + JS transferred on a cold load").toBeLessThan(HTML_JS_BUDGET);
      expect.soft(firstPageMs, "the first page of rows, from navigation start (best of 3 cold loads)").toBeLessThan(FIRST_PAGE_BUDGET_MS);
      // No fetch was needed for the first page: it came with the HTML.
      expect(rows.filter((r) => r.type === "Fetch" && r.url.includes("/documents?") && !r.url.includes("status=failed")).map((r) => r.url)).toEqual([]);

      await expect(page.getByTestId("collection-title")).toHaveText(NAME);
      await expect(page.getByTestId("collection-counts")).toContainText("1,000 documents · 20 failed");
      await expect(page.getByTestId("documents-range")).toHaveText("1–50 of 1,000");
      await expect(page.getByTestId("documents-page")).toHaveText("Page 1 of 20");
      // Newest first: the last seeded document leads.
      await expect(page.getByTestId("document").first()).toContainText("1000 ");
      expect(await coveringTitle(page), "no button covers the collection's name").toEqual([]);

      // The failed uploads are listed with their reasons.
      await expect(page.getByTestId("failed-uploads")).toContainText("Failed uploads (20)");

      // Search the passages: ranked, with the document and place, the words marked; a click opens it.
      await page.getByTestId("passage-search-input").fill(NEEDLE);
      await page.getByTestId("passage-search-submit").click();
      const hit = page.getByTestId("passage-hit").first();
      await expect(hit).toContainText("glowing green on fallen alder logs");
      await expect(hit.locator("mark").first()).toHaveText(/bioluminescent/i);
      expect(await overflow(page), `${width} px: nothing wider than the window`).toBeLessThanOrEqual(0);
      const found = await axe(page);
      expect(found, found.join("\n")).toEqual([]);
      await shot(page, `documents-${width}`, true);

      // Sorting and paging are the server's: Z–A by name, then page 2.
      if (width === 390) await page.getByTestId("documents-sort").selectOption("name:desc");
      else {
        await page.getByTestId("sort-name").click();
        await page.getByTestId("sort-name").click();
      }
      await expect(page.getByTestId("document").first()).toContainText("1000 ");
      await page.getByTestId("documents-next").click();
      await expect(page.getByTestId("documents-page")).toHaveText("Page 2 of 20");
      await expect(page.getByTestId("document").first()).toContainText("0950 ");
      // Filtered to the failed ones: 20, each with its reason.
      await page.getByTestId("documents-status-filter").selectOption("failed");
      await expect(page.getByTestId("documents-range")).toHaveText("1–20 of 20");
      await expect(page.locator('[data-testid="document"][data-status="failed"]')).toHaveCount(20);
      expect(await overflow(page), `${width} px with a filter: nothing wider than the window`).toBeLessThanOrEqual(0);

      // The collections page: each collection's name on its own line, its buttons under it.
      if (width === 390) {
        await page.goto("/collections");
        const card = page.locator('[data-testid="collection"]', { hasText: NAME });
        const name = await card.getByTestId("collection-open").boundingBox();
        for (const button of await card.getByRole("button").all()) {
          const box = (await button.boundingBox())!;
          expect(box.y >= name!.y + name!.height || box.y + box.height <= name!.y, `"${await button.textContent()}" is clear of the name`).toBe(true);
        }
        expect(await overflow(page), "390 px collections page: nothing wider than the window").toBeLessThanOrEqual(0);
        await page.goBack();
        await expect(page.getByTestId("collection-title")).toHaveText(NAME);
        await page.getByTestId("passage-search-input").fill(NEEDLE);
        await page.getByTestId("passage-search-submit").click();
      }

      // The hit opens its document at the passage, highlighted.
      await page.getByTestId("documents-status-filter").selectOption("");
      await hit.click();
      await expect(page.getByTestId("cited-passage")).toContainText(NEEDLE);
    } finally {
      await close();
    }
  });
}
