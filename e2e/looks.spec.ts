// Screenshots in dark mode and on a 390 px phone, for a human (or agent) to look at.
import { expect, test } from "./fixtures";
import { setTheme, shot, startResearch } from "./helpers";

test("dark theme and a narrow phone", async ({ page, request }) => {
  const { id } = await startResearch(request, "How effective are heat pumps in very cold climates?", 2, 3);
  await expect
    .poll(async () => ((await (await request.get(`/api/research/${id}`)).json()) as { status: string }).status, { timeout: 90_000 })
    .toBe("completed");

  await page.goto("/");
  await setTheme(page, "dark");
  await shot(page, "wizard-dark");
  await page.goto(`/research/${id}`);
  await page.getByTestId("tree-node").first().click();
  await shot(page, "tree-dark");
  await page.goto(`/research/${id}/report`);
  await expect(page.getByTestId("report")).toBeVisible();
  await shot(page, "report-dark");
  await page.goto("/history");
  await expect(page.getByTestId("history-row").first()).toBeVisible();
  await shot(page, "history-dark");

  await setTheme(page, "light");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await shot(page, "mobile-wizard", true);
  await page.goto(`/research/${id}`);
  await expect(page.getByTestId("tree-node").first()).toBeVisible();
  await shot(page, "mobile-tree");
  await page.getByTestId("tree-node").nth(1).click();
  await expect(page.getByTestId("query-detail")).toBeVisible();
  await shot(page, "mobile-tree-detail");
  await page.getByTestId("query-detail-close").click();
  await page.goto(`/research/${id}/report`);
  await expect(page.getByTestId("report")).toBeVisible();
  await page.getByTestId("citation").first().click();
  await expect(page.getByTestId("citation-card")).toBeVisible();
  await shot(page, "mobile-report-citation");
  await page.goto("/history");
  await shot(page, "mobile-history");
  // Nothing is wider than the screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a depth-5 breadth-5 tree of 110 queries stays readable", async ({ page, request }) => {
  test.setTimeout(240_000);
  const { id } = await startResearch(request, "What is known about the long-term health effects of intermittent fasting?", 5, 5);
  await page.goto(`/research/${id}`);
  await expect(page.getByTestId("stat-queries")).toContainText("/110");
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", /completed|failed/, { timeout: 200_000 });
  const nodes = page.getByTestId("tree-node");
  // A big tree opens at levels 1–2; every level is one click away.
  await expect(nodes).toHaveCount(5 + 15);
  await page.getByTestId("expand-all").click();
  expect(await nodes.count()).toBeGreaterThan(60);
  await shot(page, "tree-110-light", true);
  // No two rows overlap.
  const boxes = await nodes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })));
  for (let i = 1; i < boxes.length; i++) expect(boxes[i].top).toBeGreaterThanOrEqual(boxes[i - 1].bottom - 0.5);
  // Collapsing hides the lower levels.
  await page.getByTestId("collapse-all").click();
  await expect(nodes).toHaveCount(5);
  await page.getByTestId("show-levels").selectOption("2");
  await expect(nodes).toHaveCount(5 + 15);
  await page.getByTestId("expand-all").click();
  expect(await nodes.count()).toBeGreaterThan(60);
});
