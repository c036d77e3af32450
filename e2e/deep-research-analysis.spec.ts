// Deep Research's analysis in the browser: a CSV dropped on the start form is loaded and profiled
// (the datasets panel), the ANALYSIS task's queries show their SQL, result table and chart, and a
// discovery drawn from it opens to the stored query and result the way literature evidence opens to
// its quote.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { setTheme, shots as themedShots } from "./helpers";
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

  // The task: its output, and its query with SQL, the result table and the chart.
  const task = page.locator('[data-testid=dr-task][data-task-id="ana-1-1"]');
  await expect(task).toHaveAttribute("data-status", "completed");
  await task.locator("details > summary").click();
  await expect(task.getByTestId("dr-task-output")).toContainText(`${regions[0]}: ${totals[0]} units`);
  const query = task.getByTestId("dr-query").first();
  await expect(query.getByTestId("dr-query-sql")).toContainText('SELECT "region", sum("units")');
  await expect(query.getByTestId("dr-result-table").locator("tbody tr")).toHaveCount(regions.length);
  await expect(query.getByTestId("dr-result-table").locator("tbody tr").first()).toContainText(String(totals[0]));
  await expect(query.getByTestId("dr-query-meta")).toContainText(`${regions.length} rows`);
  await expect(query.getByTestId("dr-chart")).toHaveAttribute("data-mark", "bar");
  await expect(query.getByTestId("dr-chart").locator("rect")).toHaveCount(regions.length);

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
