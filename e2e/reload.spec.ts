// A reload (or a second tab) mid-run gets a fresh snapshot and keeps streaming.
import { expect, test } from "./fixtures";
import { llmControl, llmReset, shot, startResearch } from "./helpers";

test.afterEach(async ({ request }) => llmReset(request));

test("reloading mid-run shows the same tree and it keeps growing", async ({ page, context, request }) => {
  const { id } = await startResearch(request, "What limits the lifespan of offshore wind turbines?");
  // Slow every LLM call so the run is still going after the reload.
  await llmControl(request, { latencyMs: 1500 });

  await page.goto(`/research/${id}`);
  await expect(page.getByTestId("tree-node").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "running");
  const before = await page.getByTestId("tree-node").count();

  await page.reload();
  await expect(page.getByTestId("tree-node").first()).toBeVisible();
  expect(await page.getByTestId("tree-node").count()).toBeGreaterThanOrEqual(before);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");

  // A second tab shows the same research.
  const second = await context.newPage();
  await second.goto(`/research/${id}`);
  await expect(second.getByTestId("tree-node").first()).toBeVisible();

  await llmControl(request, { latencyMs: 100 });
  await expect(page.getByTestId("tree-node")).toHaveCount(4, { timeout: 90_000 });
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  await expect(second.getByTestId("research-status")).toHaveAttribute("data-status", "completed");
  await expect(second.getByTestId("tree-node")).toHaveCount(4);
  await shot(page, "tree-after-reload-light");
});
