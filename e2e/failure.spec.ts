// A research whose LLM refuses it (a bad API key: 401, which no retry fixes) fails, and shows its
// error, a link to the error output, and Resume. (A 5xx no longer fails a research: it pauses it.)
import { expect, test } from "./fixtures";
import { llmControl, llmReset, shot, startFailingResearch, startResearch } from "./helpers";

test.afterEach(async ({ request }) => llmReset(request));

test("a failed research shows its error and error output", async ({ page, request }) => {
  const research_id = await startFailingResearch(request);

  await page.goto(`/research/${research_id}`);
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "failed", { timeout: 90_000 });
  await expect(page.getByTestId("research-error")).toBeVisible();
  await expect(page.getByTestId("research-error-message")).toContainText("HTTP 401");
  // It failed before finding anything: it can be resumed, but there is nothing to write a report from.
  await expect(page.getByTestId("resume-research")).toBeVisible();
  await expect(page.getByTestId("write-report")).toHaveCount(0);
  const link = page.getByTestId("error-output-link");
  await expect(link).toHaveAttribute("href", `/api/research/${research_id}/error-output`);
  const out = await request.get(`/api/research/${research_id}/error-output`);
  expect(out.status()).toBe(200);
  await shot(page, "research-failed-light");
  await llmReset(request);

  // The report tab says why there is no report.
  await page.getByTestId("tab-report").click();
  await expect(page.getByTestId("report-empty")).toBeVisible();
});


test("a running research can be cancelled", async ({ page, request }) => {
  await llmControl(request, { latencyMs: 1500 });
  const { id } = await startResearch(request, "How do coral reefs recover after bleaching?", 2, 2);
  await page.goto(`/research/${id}`);
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "running");
  await page.getByTestId("cancel-research").click();
  await expect(page.getByTestId("confirm-dialog")).toBeVisible();
  await page.getByTestId("confirm-ok").click();
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
  await expect(page.getByTestId("research-cancelled")).toBeVisible();
  await expect(page.getByTestId("cancel-research")).toHaveCount(0);
});
