// Deep Research's analysis in the browser: a CSV dropped on the start form is loaded and profiled
// (the datasets panel), the ANALYSIS task shows in the notebook (main column) with its write-up, its
// queries' SQL, sortable result tables and charts, and a discovery drawn from it opens to the stored
// query and result the way literature evidence opens to its quote. With two analyses: no sideways
// scroll at 1440 or 390 px, axe clean, the page opens at its top, and "[q1]" jumps to its query.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { setTheme, shot, shots as themedShots } from "./helpers";
import { salesCsv, salesRows } from "../test/fixtures/datasets";

const shots = (page: Page, name: string) => themedShots(page, `dr-${name}`);

test.describe.configure({ timeout: 180_000 });

const rows = salesRows();
const regions = [...new Set(rows.map((r) => r.region))].sort();
const totals = regions.map((region) => rows.filter((r) => r.region === region).reduce((s, r) => s + r.units, 0));

test("an analysis task's SQL, result table and chart; its discovery opens to the stored query", async ({ page }) => {
  await page.goto("/deep-research/new");
  await page.getByLabel("Research question").fill("Regional sales of the uploaded data #analysis #tasks-1");
  await page.getByTestId("mode-steering").click();
  await page.getByTestId("dr-file-input").setInputFiles([
    { name: "sales.csv", mimeType: "text/csv", buffer: Buffer.from(salesCsv()) },
    { name: "photo.csv", mimeType: "text/csv", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) },
  ]);
  await page.getByTestId("dr-start-now").click();
  await expect(page).toHaveURL(/\/deep-research\/[^/]+$/);
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 150_000 });

  // The datasets: the CSV profiled, the PNG behind a .csv name refused with its reason.
  const sales = page.locator('[data-testid=dr-dataset][data-filename="sales.csv"]');
  await expect(sales).toHaveAttribute("data-status", "loaded");
  await expect(sales).toContainText(`table sales · ${rows.length} rows · 4 columns`);
  await sales.locator("summary").click();
  await expect(sales.getByTestId("dr-dataset-columns")).toContainText("units");
  const photo = page.locator('[data-testid=dr-dataset][data-filename="photo.csv"]');
  await expect(photo).toHaveAttribute("data-status", "failed");
  await photo.locator("summary").click();
  await expect(photo.getByTestId("dr-dataset-error")).toContainText("photo.csv: the file is named as CSV text but its content looks like a PNG image");

  // The task, in the notebook: its write-up, and its query with SQL, the result table and the chart;
  // the plan links to it.
  const task = page.locator('[data-testid=dr-task][data-task-id="ana-1-1"]');
  await expect(task).toHaveAttribute("data-status", "completed");
  await expect(task.getByTestId("dr-task-notebook")).toBeVisible();
  const analysis = page.locator('[data-testid=dr-analysis][data-task-id="ana-1-1"]');
  await expect(analysis.getByTestId("dr-analysis-writeup")).toContainText(`${regions[0]}: ${totals[0]} units`);
  await expect(analysis.getByTestId("dr-analysis-datasets")).toContainText("sales.csv · table sales · read as CSV · comma-separated");
  const query = analysis.getByTestId("dr-query").first();
  await expect(query.getByTestId("dr-query-sql")).toContainText('SELECT "region", sum("units")');
  await expect(query.getByTestId("dr-result-table").locator("tbody tr")).toHaveCount(regions.length);
  await expect(query.getByTestId("dr-result-table").locator("tbody tr").first()).toContainText(String(totals[0]));
  await expect(query.getByTestId("dr-query-meta")).toContainText(`${regions.length} rows`);
  await expect(query.getByTestId("dr-chart")).toHaveAttribute("data-mark", "bar");
  await expect(query.getByTestId("dr-chart").locator("rect")).toHaveCount(regions.length);

  // The write-up (a plan of one analysis: no page to cite) states the analysis's finding citing its query: the
  // citation, and its entry in the write-up's source list, lead to the query's cell.
  const writeUp = page.getByTestId("dr-verified-reply");
  await expect(writeUp).toContainText("Query q1 of analysis ana-1-1 — query q1 of ana-1-1");
  const citations = writeUp.locator('a[href="#query-ana-1-1-q1"]');
  await expect(citations).toHaveCount(2);
  await citations.first().click();
  await expect(analysis.getByTestId("dr-cell").first()).toBeFocused();

  // The discovery drawn from it: its evidence is the stored query and its result.
  const discovery = page.getByTestId("dr-discovery").filter({ hasText: "ana-1-1" }).first();
  await discovery.getByTestId("dr-discovery-toggle").click();
  const evidence = discovery.getByTestId("dr-query-evidence").first();
  await expect(evidence.getByTestId("dr-query-sql")).toContainText('sum("units")');
  await expect(evidence.getByTestId("dr-result-table").locator("tbody tr")).toHaveCount(regions.length);
  await expect(evidence.getByTestId("dr-chart")).toBeVisible();
  await shots(page, "analysis-evidence");

  // With the datasets, the queries, the tables and the charts open, the page passes axe in both themes.
  for (const theme of ["light", "dark"] as const) {
    await setTheme(page, theme);
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.map((v) => `${theme}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`)).toEqual([]);
  }
});

/** Whether the page scrolls sideways: its scrolling element wider than the window. */
const overflow = (page: Page) => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth);

test("two analyses as a notebook at 1440 and 390 px: [q1] links to its query, charts with ticks and titles, no sideways scroll, axe clean, opens at its top", async ({ page }) => {
  await page.goto("/deep-research/new");
  await page.getByLabel("Research question").fill("Regional sales notebook #analysis #analyses-2 #tasks-2");
  await page.getByTestId("mode-steering").click();
  await page.getByTestId("dr-file-input").setInputFiles([{ name: "sales.csv", mimeType: "text/csv", buffer: Buffer.from(salesCsv()) }]);
  await page.getByTestId("dr-start-now").click();
  await expect(page).toHaveURL(/\/deep-research\/[^/]+$/);
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 150_000 });

  // Opened afresh (the steering box takes the focus without scrolling), the page is at its top.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.reload();
  await expect(page.getByTestId("dr-analysis")).toHaveCount(2);
  await expect(page.getByTestId("dr-reply")).toBeFocused();
  expect(await page.evaluate(() => window.scrollY), "the page opens at its top").toBe(0);
  await expect(page.getByTestId("dr-title")).toBeInViewport();

  const notebook = page.getByTestId("dr-notebook");
  const [first, second] = [notebook.getByTestId("dr-analysis").nth(0), notebook.getByTestId("dr-analysis").nth(1)];
  // Each: the write-up with linked [q1], the query's cell, its table and chart.
  const products = [...new Set(rows.map((r) => r.product))].sort();
  const records = products.map((p) => rows.filter((r) => r.product === p).length);
  await expect(first.getByTestId("dr-analysis-writeup")).toContainText(`${products[0]}: ${records[0]} records`);
  await expect(second.getByTestId("dr-analysis-writeup")).toContainText(`${regions[0]}: ${totals[0]} units`);
  for (const [a, marks, mark] of [[first, products.length, "line"], [second, regions.length, "bar"]] as const) {
    await expect(a.getByTestId("dr-query-link").first()).toHaveAttribute("data-target", /^query-ana-1-\d-q1$/);
    await expect(a.getByTestId("dr-query-link").first()).toContainText("q1");
    const cell = a.getByTestId("dr-cell").first();
    await expect(cell.getByTestId("dr-query-sql")).toContainText("SELECT");
    await expect(cell.getByTestId("dr-result-table").locator("tbody tr")).toHaveCount(marks);
    const chart = cell.getByTestId("dr-chart");
    await expect(chart).toHaveAttribute("data-mark", mark);
    await expect(chart.locator(mark === "bar" ? "rect" : "circle")).toHaveCount(marks);
    // Ticks that include zero, a zero baseline, both axis titles and the chart's title; a text alternative.
    await expect(chart.locator('[data-testid=dr-chart-yticks] g[data-value="0"]')).toHaveCount(1);
    expect(await chart.getByTestId("dr-chart-yticks").locator("g").count()).toBeGreaterThanOrEqual(3);
    await expect(chart.getByTestId("dr-chart-zero")).toHaveCount(1);
    await expect(chart.getByTestId("dr-chart-xtitle")).toHaveText(mark === "bar" ? "region" : "product");
    await expect(chart.getByTestId("dr-chart-ytitle")).toHaveText(mark === "bar" ? "total" : "records");
    await expect(chart.getByTestId("dr-chart-title")).not.toBeEmpty();
    await expect(chart.getByTestId("dr-chart-svg")).toHaveAccessibleName(/\S/);
    await expect(chart.getByTestId("dr-chart-svg")).toHaveAccessibleDescription(/chart .*values from/);
  }

  // A result table sorts by a column (numbers as numbers).
  const table = second.getByTestId("dr-result-table").first();
  const total = table.locator("thead th").nth(1);
  await total.getByTestId("dr-sort").click();
  await expect(total).toHaveAttribute("aria-sort", "ascending");
  await expect(table.locator("tbody tr").first()).toContainText(String(Math.min(...totals)));
  await total.getByTestId("dr-sort").click();
  await expect(total).toHaveAttribute("aria-sort", "descending");
  await expect(table.locator("tbody tr").first()).toContainText(String(Math.max(...totals)));

  // The datasets say how each was read.
  await expect(page.getByTestId("dr-dataset-read-as").first()).toHaveText("read as CSV · comma-separated");

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    // [q1] of the second analysis jumps to its query's cell, focused and in view.
    const link = second.getByTestId("dr-query-link").first();
    await link.scrollIntoViewIfNeeded();
    await link.click();
    const target = second.getByTestId("dr-cell").first();
    await expect(target).toBeFocused();
    await expect(target).toBeInViewport();
    expect(await overflow(page), `${width} px: nothing wider than the window`).toBeLessThanOrEqual(0);
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.map((v) => `${width}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `analysis-${width}`, true);
  }
});
