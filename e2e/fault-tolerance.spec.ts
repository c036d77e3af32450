// Fault tolerance in the browser: a failed research resumes from where it stopped; a cancelled one
// settles (nothing left "analyzing") and gets its report written from what it found; an LLM outage
// shows a polite "waiting for the LLM provider" banner that goes away by itself.
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { llmControl, llmReset, shot, shots, startResearch } from "./helpers";

test.afterEach(async ({ request }) => llmReset(request));

const UNFINISHED = ["pending", "searching", "scraping", "analyzing"];

/** Waits until the research has extracted at least `n` findings (so a report can be written from them). */
async function waitForFindings(request: APIRequestContext, id: string, n: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const view = (await (await request.get(`/api/research/${id}`)).json()) as { successful_scraped_websites: { items: unknown[] }[] };
        return view.successful_scraped_websites.reduce((sum, w) => sum + w.items.length, 0);
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThanOrEqual(n);
}

async function expectNothingInProgress(page: Page): Promise<void> {
  const legend = page.getByTestId("tree-legend");
  for (const s of UNFINISHED) await expect(legend.locator(`li[data-status="${s}"]:not([data-count="0"])`)).toHaveCount(0);
  await expect(legend).not.toContainText(/Analyzing|Pending/);
  for (const s of UNFINISHED) await expect(page.locator(`[data-testid="tree-node"][data-status="${s}"]`)).toHaveCount(0);
}

test("a research that failed mid-run (401) resumes from where it stopped and completes", async ({ page, request }) => {
  test.setTimeout(240_000);
  // Paced so that the page always sees the research mid-run, however loaded the machine: at the fake
  // world's speed a (2, 3) tree can finish before a slow browser has looked at it.
  await llmControl(request, { latencyMs: 2_000 });
  const { id } = await startResearch(request, "How do flow batteries compare with lithium-ion for grid storage?", 2, 3);
  await page.goto(`/research/${id}`);
  await waitForFindings(request, id, 2);

  // A bad API key: no retry helps, so the research fails at once.
  await llmControl(request, { failAll: 401 });
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "failed", { timeout: 60_000 });
  await expect(page.getByTestId("research-error-message")).toContainText("HTTP 401");
  await expectNothingInProgress(page);
  const resume = page.getByTestId("resume-research");
  await expect(resume).toBeVisible();
  await expect(page.getByTestId("write-report")).toBeVisible();
  await shots(page, "fault-failed-actions");

  // The key is fixed; Resume from the keyboard (still paced, so that "running" is seen).
  await llmReset(request);
  await llmControl(request, { latencyMs: 1_000 });
  await resume.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "running", { timeout: 15_000 });
  await expect(page.getByTestId("research-error")).toHaveCount(0);
  // The actions went away with the failure: focus moved to the title, not lost.
  await expect(page.getByTestId("research-title")).toBeFocused();
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");

  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "completed", { timeout: 150_000 });
  // Every branch of depth 2 × breadth 3 (3 + 3·2 queries), none left stopped.
  await expect(page.getByTestId("tree-node")).toHaveCount(9);
  await expect(page.locator('[data-testid="tree-node"][data-status="completed"]')).toHaveCount(9);
  await page.getByTestId("tab-report").click();
  await expect(page.getByTestId("report").locator("h1, h2").first()).toBeVisible();
  // Every query finished: the report is not a partial one.
  await expect(page.getByTestId("report-partial")).toHaveCount(0);
});

test("a cancelled research settles, and its report is written from what it found", async ({ page, request }) => {
  test.setTimeout(180_000);
  // Paced so that the cancel below always lands while queries are still open.
  await llmControl(request, { latencyMs: 3_000 });
  const { id } = await startResearch(request, "What limits the lifespan of offshore wind turbines?", 2, 3);
  await page.goto(`/research/${id}`);
  await waitForFindings(request, id, 2);

  await page.getByTestId("cancel-research").click();
  await page.getByTestId("confirm-ok").click();
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
  await llmControl(request, { latencyMs: 400 });
  // Nothing is left "analyzing" or "pending": what the cancel interrupted shows as stopped.
  await expectNothingInProgress(page);
  await expect(page.getByTestId("tree-legend").locator('li[data-status="stopped"]')).toBeVisible();
  expect(await page.locator('[data-testid="tree-node"][data-status="stopped"]').count()).toBeGreaterThan(0);
  await expect(page.getByTestId("stat-queries").locator("xpath=..")).toContainText("stopped");
  await expect(page.getByTestId("resume-research")).toBeVisible();
  const write = page.getByTestId("write-report");
  await expect(write).toBeVisible();
  await shots(page, "fault-cancelled-actions");
  // Sources: nothing left "in progress" either.
  await page.getByTestId("tab-sources").click();
  await expect(page.getByTestId("source-row").first()).toBeVisible();
  await expect(page.locator('[data-testid="source-row"][data-status="pending"], [data-testid="source-row"][data-status="scraping"]')).toHaveCount(0);
  await expect(page.getByTestId("sources-filter-active")).toHaveCount(0);
  await shot(page, "fault-cancelled-sources-light");
  await page.getByTestId("tab-tree").click();

  await write.click();
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", /running|completed/, { timeout: 15_000 });
  await expect(page.getByTestId("research-cancelled")).toHaveCount(0);
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "completed", { timeout: 120_000 });
  await expect(page.getByTestId("research-warnings")).toContainText("written from what the research found before it stopped");
  // Nothing was explored after the cancel: the stopped queries stay stopped.
  expect(await page.locator('[data-testid="tree-node"][data-status="stopped"]').count()).toBeGreaterThan(0);

  await page.getByTestId("tab-report").click();
  await expect(page.getByTestId("report").locator("h1, h2").first()).toBeVisible();
  await expect(page.getByTestId("report-partial")).toBeVisible();
  await shot(page, "fault-partial-report-light");
});

test("an LLM outage pauses the research with a banner, which goes away by itself when the LLM is back", async ({ page, request }) => {
  test.setTimeout(240_000);
  await llmControl(request, { latencyMs: 300 });
  const { id } = await startResearch(request, "How are cities using trees to cool streets in summer?", 2, 2);
  // The provider goes down as soon as the research is under way (waiting for the page to show a
  // completed query first raced the rest of the tree on a loaded machine).
  await expect.poll(async () => ((await (await request.get(`/api/research/${id}?view=status`)).json()) as { status: string }).status).toBe("running");
  await llmControl(request, { failAll: 503 });
  await page.goto(`/research/${id}`);
  const banner = page.getByTestId("paused-banner");
  await expect(banner).toBeVisible({ timeout: 45_000 });
  await expect(banner).toContainText("Waiting for the LLM provider since");
  await expect(page.getByTestId("paused-reason")).toContainText("503");
  await expect(page.getByTestId("paused-region")).toHaveAttribute("role", "status");
  const status = page.getByTestId("research-status");
  await expect(status).toHaveAttribute("data-status", "running");
  await expect(status).toHaveAttribute("data-paused", "true");
  await expect(status).toHaveText("Paused");

  // "Retry now" while the provider is still down: it tries, says so, and keeps waiting.
  await page.getByTestId("retry-provider").click();
  await expect(page.getByTestId("paused-retried")).toBeVisible();
  await expect(page.getByTestId("paused-retry-error")).toHaveCount(0);
  await expect(banner).toBeVisible();
  await shots(page, "fault-paused");

  // The provider answers again: the banner goes by itself and the research completes.
  await llmReset(request);
  await expect(banner).toBeHidden({ timeout: 60_000 });
  await expect(status).not.toHaveAttribute("data-paused", "true");
  await expect(status).toHaveAttribute("data-status", "completed", { timeout: 120_000 });
  await expect(page.locator('[data-testid="tree-node"][data-status="completed"]')).toHaveCount(4);
});
