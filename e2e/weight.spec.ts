// Issue 14, points 2 and 9 (weight and smoothness): a 110-node research (breadth 5, depth 5) watched
// while it streams must keep the main thread free (no task near 200 ms of its CPU: mainThreadTasks),
// and once it has finished, opening its page (tree tab, report tab) must transfer under 300 KB.
import { expect, test, type Browser, type Page } from "./fixtures";
import { AUTH_FILE, llmControl, llmReset, mainThreadTasks, shot, startResearch } from "./helpers";

test.afterEach(async ({ request }) => llmReset(request));

let bigId = "";

interface Transfer {
  url: string;
  type: string;
  /** Bytes on the wire (compressed bodies, with headers), from CDP's loadingFinished. */
  encoded: number;
  /** Decoded body bytes, from CDP's dataReceived. */
  decoded: number;
}

/** Opens `path` in a fresh context (empty cache) and records every response's size with CDP. */
async function firstLoad(browser: Browser, path: string, ready: (page: Page) => Promise<void>): Promise<Transfer[]> {
  const context = await browser.newContext({ storageState: AUTH_FILE, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const rows = new Map<string, Transfer>();
  cdp.on("Network.responseReceived", (e) => {
    rows.set(e.requestId, { url: e.response.url, type: e.type, encoded: 0, decoded: 0 });
  });
  cdp.on("Network.dataReceived", (e) => {
    const r = rows.get(e.requestId);
    if (r) r.decoded += e.dataLength;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const r = rows.get(e.requestId);
    if (r) r.encoded = e.encodedDataLength;
  });
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState("networkidle");
  await context.close();
  return [...rows.values()];
}

function summarise(label: string, rows: Transfer[]): { counted: number; decoded: number } {
  // Everything the first load transfers: documents, scripts, styles, the font, fetches and prefetches.
  const counted = rows;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const byType = new Map<string, { encoded: number; decoded: number; n: number }>();
  for (const r of rows) {
    const t = byType.get(r.type) ?? { encoded: 0, decoded: 0, n: 0 };
    t.encoded += r.encoded;
    t.decoded += r.decoded;
    t.n++;
    byType.set(r.type, t);
  }
  const largest = [...rows].sort((a, b) => b.encoded - a.encoded).slice(0, 12);
  console.log(
    `[weight] ${label}: ${[...byType].map(([t, s]) => `${t} ×${s.n} ${kb(s.encoded)} (decoded ${kb(s.decoded)})`).join("; ")}\n` +
      `[weight] ${label}: largest ${largest.map((r) => `${new URL(r.url).pathname.split("/").slice(-2).join("/")} ${kb(r.encoded)}`).join(", ")}`,
  );
  const fetches = rows.filter((r) => r.type === "Fetch").map((r) => `${new URL(r.url).pathname}${new URL(r.url).search.slice(0, 20)} ${kb(r.encoded)}`);
  console.log(`[weight] ${label}: fetches ${fetches.join(", ")}`);
  const sum = { counted: counted.reduce((n, r) => n + r.encoded, 0), decoded: counted.reduce((n, r) => n + r.decoded, 0) };
  console.log(`[weight] ${label}: everything = ${kb(sum.counted)} transferred (decoded ${kb(sum.decoded)})`);
  return sum;
}

test("a 110-node research streams without long main-thread tasks", async ({ page, request }) => {
  test.setTimeout(300_000);
  await llmControl(request, { latencyMs: 0 });
  const { id } = await startResearch(request, "How do coastal cities plan for sea-level rise?", 5, 5);
  bigId = id;
  await page.goto(`/research/${id}`);
  await expect(page.getByTestId("stat-queries")).toContainText(/\/110$/, { timeout: 60_000 });
  // From the first rendered tree on: what the stream's events cost the page.
  const tasks = await mainThreadTasks(page, async () => {
    await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "completed", { timeout: 240_000 });
    await expect(page.getByTestId("stat-queries")).toHaveText("110/110");
  });
  const max = (xs: number[]) => Math.round(Math.max(0, ...xs));
  const cpu = max(tasks.map((t) => t.cpu));
  console.log(
    `[weight] while streaming: ${tasks.length} tasks over 50 ms; longest ${max(tasks.map((t) => t.wall))} ms of wall time, ` +
      `${cpu} ms of the main thread's CPU; ${Math.round(tasks.reduce((n, t) => n + t.cpu, 0))} ms CPU in those tasks; ` +
      `the most CPU (wall / CPU ms): ${[...tasks].sort((a, b) => b.cpu - a.cpu).slice(0, 3).map((t) => `${Math.round(t.wall)} / ${Math.round(t.cpu)}`).join(", ")}`,
  );
  // The page's own work per task (its thread's CPU time): on a loaded CI machine the wall time of a
  // task is mostly the thread waiting for a core (see mainThreadTasks).
  expect(cpu, "the longest main-thread task (CPU) while events stream in").toBeLessThan(200);
});

test("a finished research's page loads under 300 KB (tree tab and report tab)", async ({ browser, request }) => {
  test.setTimeout(300_000);
  if (!bigId) {
    // The streaming test did not leave its research (it failed, or runs alone): make one.
    await llmControl(request, { latencyMs: 0 });
    bigId = (await startResearch(request, "How do coastal cities plan for sea-level rise?", 5, 5)).id;
    await expect
      .poll(async () => ((await (await request.get(`/api/research/${bigId}`)).json()) as { status: string }).status, { timeout: 240_000 })
      .toBe("completed");
  }
  const tree = await firstLoad(browser, `/research/${bigId}`, async (page) => {
    await expect(page.getByTestId("stat-queries")).toHaveText("110/110");
    await expect(page.getByTestId("tree-node").first()).toBeVisible();
    await shot(page, "weight-tree-first-load");
  });
  const report = await firstLoad(browser, `/research/${bigId}/report`, async (page) => {
    // A finished report arrives as HTML: the browser does not download the Markdown renderer for it.
    await expect(page.getByTestId("report")).toHaveAttribute("data-rendered", "server");
    await expect(page.getByTestId("report").getByTestId("citation").first()).toBeVisible();
    await shot(page, "weight-report-first-load");
  });
  // The findings' text is not part of a first load: it is fetched when a view shows it (next test).
  for (const rows of [tree, report]) expect(rows.map((x) => new URL(x.url).pathname)).not.toContain(`/api/research/${bigId}`);
  const t = summarise("tree tab", tree);
  const r = summarise("report tab", report);
  expect(t.counted, "tree tab: bytes transferred on first load").toBeLessThan(300 * 1024);
  expect(r.counted, "report tab: bytes transferred on first load").toBeLessThan(300 * 1024);
});

test("an ended research's findings appear when a view shows them: query details, sources and citation cards", async ({ page }) => {
  test.skip(!bigId, "needs the research of the streaming test");
  await page.goto(`/research/${bigId}`);
  await page.getByTestId("tree-node").first().click();
  await expect(page.getByTestId("query-detail").getByTestId("extracted-item").first()).not.toBeEmpty();

  await page.getByTestId("tab-sources").click();
  const toggle = page.getByTestId("source-toggle").filter({ hasText: /^[1-9]\d* findings?/ }).first();
  const findings = Number((await toggle.textContent())!.match(/\d+/)![0]);
  await toggle.click();
  await expect(page.getByTestId("source-finding")).toHaveCount(findings);

  await page.goto(`/research/${bigId}/report`);
  await page.getByTestId("report").getByTestId("citation").first().click();
  await expect(page.getByTestId("citation-card").getByTestId("citation-snippet").first()).not.toBeEmpty();
});

test("the wizard's estimate shows time and token ranges, and no label is cut off at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByTestId("prompt-input").fill("How do heat pumps perform in cold climates?");
  await page.getByTestId("num-questions").fill("1");
  await page.getByTestId("generate-questions").click();
  await expect(page.getByTestId("wizard-step-2")).toBeVisible();
  for (const [depth, breadth] of [[2, 2], [5, 5]] as const) {
    await page.getByTestId(`depth-${depth}`).click();
    await page.getByTestId(`breadth-${breadth}`).click();
    // Ranges: a low and a high end, in the units people read.
    await expect(page.getByTestId("estimate-time")).toHaveText(/^\d+(\.\d)?( (s|min|h))?–\d+(\.\d)? (s|min|h)$/);
    await expect(page.getByTestId("estimate-tokens")).toHaveText(/^\d+(\.\d)?[kM]?–\d+(\.\d)?[kM]?$/);
    await expect(page.getByTestId("estimate-verification")).toHaveText(/^2–\d+(\.\d)?[kM]?$/);
    // No price is configured in the e2e environment: no cost is guessed.
    await expect(page.getByTestId("estimate-cost")).toHaveCount(0);
    const clipped = await page.getByTestId("estimate").evaluate((root) =>
      [...root.querySelectorAll<HTMLElement>("[data-estimate-label]")]
        .filter((el) => el.scrollWidth > el.clientWidth)
        .map((el) => `${el.textContent} (${el.scrollWidth} > ${el.clientWidth})`),
    );
    expect(clipped, `labels cut off at 390 px (depth ${depth}, breadth ${breadth})`).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "nothing wider than a 390 px screen").toBeLessThanOrEqual(0);
  }
  await page.getByTestId("estimate").scrollIntoViewIfNeeded();
  await shot(page, "weight-estimate-390");
  const tokens = await page.getByTestId("estimate-tokens").textContent();
  const time = await page.getByTestId("estimate-time").textContent();
  console.log(`[weight] wizard estimate for depth 5 × breadth 5: ${await page.getByTestId("estimate-llm").textContent()} LLM calls, ${time}, ${tokens} tokens`);
});
