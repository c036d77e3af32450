// Deep Research in the browser, on the production build against the fakes: a live run with its
// tasks, discoveries and evidence; a reload mid-run; steering; the clarification wizard; another
// user's conversation is not found. Screenshots at 1440 and 390 px, light and dark.
import { expect, test, type Browser, type Page } from "./fixtures";
import { llmControl, sameOrigin, shots as themedShots } from "./helpers";

const shots = (page: Page, name: string) => themedShots(page, `dr-${name}`);

test.describe.configure({ timeout: 240_000 });

async function startViaApi(page: Page, body: Record<string, unknown>): Promise<string> {
  const res = await page.request.post("/api/deep-research/start", { headers: sameOrigin(), data: body });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { conversationId: string }).conversationId;
}

test("a semi-autonomous run streams its tasks and discoveries; a reload shows the same; evidence opens to a quote and its URL", async ({ page }) => {
  await page.goto("/deep-research/new");
  await expect(page.getByTestId("nav-new-deep")).toHaveAttribute("aria-current", "page");
  await shots(page, "start");
  await page.getByLabel("Research question").fill("How do coral reefs recover after bleaching? #stop-at-2");
  await page.getByTestId("mode-semi-autonomous").click();
  // A dataset goes with the start (multipart), listed with its size first.
  await page.getByTestId("dr-file-input").setInputFiles({ name: "reef-survey.csv", mimeType: "text/csv", buffer: Buffer.from("site,cover\nA,0.4\nB,0.6\n") });
  await expect(page.getByTestId("dr-files")).toContainText("reef-survey.csv");
  await expect(page.getByTestId("dr-files")).toContainText("23 B");
  await page.getByTestId("dr-start-now").click();
  await expect(page).toHaveURL(/\/deep-research\/[^/]+$/);

  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "true");
  await expect(page.getByTestId("dr-mode")).toHaveText("Semi-autonomous");
  await expect(page.getByTestId("dr-objective")).toContainText("coral reefs");
  await expect(page.getByTestId("dr-datasets")).toHaveText("reef-survey.csv (23 B)");
  await expect(page.getByTestId("dr-task").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("dr-task-research").first()).toHaveAttribute("href", /^\/research\/[^/]+$/);

  // Reload mid-run: the same tasks at least, and the stream live again.
  const before = await page.getByTestId("dr-task").count();
  await page.reload();
  await expect(page.getByTestId("dr-task").first()).toBeVisible();
  expect(await page.getByTestId("dr-task").count()).toBeGreaterThanOrEqual(before);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", /live|closed/);
  // The phase's elapsed time after the reload counts from when the phase began on the server.
  const id = new URL(page.url()).pathname.split("/").pop()!;
  await expect
    .poll(async () => {
      const since = await page.getByTestId("dr-phase").getAttribute("data-since");
      const run = ((await (await page.request.get(`/api/deep-research/conversations/${id}`)).json()) as { deepResearchRun: { phaseStartedAt: string | null } }).deepResearchRun;
      return since !== null && run.phaseStartedAt !== null && Number(since) === Date.parse(run.phaseStartedAt);
    })
    .toBe(true);

  await expect(page.getByTestId("dr-discovery").first()).toBeVisible({ timeout: 120_000 });
  await shots(page, "running");
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 180_000 });
  await expect(page.getByTestId("dr-message").filter({ has: page.getByText("Iteration 2") })).toHaveCount(1);
  await expect(page.getByTestId("dr-task")).toHaveCount(4);
  await expect(page.getByTestId("dr-hypothesis")).not.toContainText("No hypothesis yet");

  // The hypothesis's citations link to their tasks: a click scrolls to the task, focuses and highlights
  // it, opening its level when folded; the task's child research link stays.
  const inline = page.getByTestId("dr-hypothesis").locator(".prose-report").getByTestId("dr-cite").first();
  await expect(inline).toBeVisible();
  const cited = (await inline.getAttribute("data-task-id"))!;
  await expect(page.getByTestId("dr-rests-on").getByTestId("dr-cite")).not.toHaveCount(0);
  const citedTask = page.locator(`[data-testid=dr-task][data-task-id="${cited}"]`);
  const level = await page.locator(`[data-testid=dr-level]:has([data-task-id="${cited}"])`).getAttribute("data-level");
  await page.locator(`[data-testid=dr-level][data-level="${level}"] > summary`).click();
  await expect(citedTask).toHaveCount(0);
  await inline.focus();
  await page.keyboard.press("Enter");
  await expect(citedTask).toHaveAttribute("data-highlighted", "true");
  await expect(citedTask).toBeFocused();
  await expect(citedTask).toBeInViewport();
  await expect(citedTask.getByTestId("dr-task-research")).toHaveAttribute("href", /^\/research\/[^/]+$/);

  const first = page.getByTestId("dr-discovery").first();
  await expect(first.getByTestId("dr-evidence-count")).toHaveText(/[1-9]\d* evidence/);
  await first.getByTestId("dr-discovery-toggle").click();
  await expect(first.getByTestId("dr-discovery-toggle")).toHaveAttribute("aria-expanded", "true");
  await expect(first.getByTestId("dr-quote").first()).not.toBeEmpty();
  await expect(first.getByTestId("dr-quote-url").first()).toHaveAttribute("href", /^https?:\/\//);
  await shots(page, "evidence");

  // Keyboard: the toggle closes with Enter.
  await first.getByTestId("dr-discovery-toggle").focus();
  await page.keyboard.press("Enter");
  await expect(first.getByTestId("dr-evidence")).toHaveCount(0);
});

test("steering: one iteration, the box takes the focus, a steer runs the next, its reply shown as it is written", async ({ page }) => {
  const id = await startViaApi(page, { message: "Which soils store the most carbon? #stop-at-9", researchMode: "steering" });
  await page.goto(`/deep-research/${id}`);
  await expect(page.getByTestId("dr-mode")).toHaveText("Steering");
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 120_000 });
  await expect(page.getByTestId("dr-reply")).toBeFocused();
  const replies = page.locator("[data-testid=dr-message][data-role=assistant]");
  await expect(replies).toHaveCount(1);
  // The next reply streams over a few seconds: it shows as a draft while it is written.
  await llmControl(page.request, { latencyRules: [{ match: "dr-reply agent", latencyMs: 6_000 }] });
  try {
    await page.getByTestId("dr-reply").fill("Focus on peatlands next.");
    await page.keyboard.press("Control+Enter");
    await expect(page.getByTestId("dr-message").filter({ hasText: "Focus on peatlands next." })).toHaveCount(1, { timeout: 30_000 });
    const draft = page.getByTestId("dr-draft");
    await expect(draft).toContainText("Reply 2", { timeout: 120_000 });
    await expect(draft).toContainText("writing…");
    await expect(draft).toContainText("Iteration 1");
    // Each start counts from iteration 1: the steer's reply is the conversation's second; saved, it replaces the draft.
    await expect(replies).toHaveCount(2, { timeout: 60_000 });
    await expect(draft).toHaveCount(0);
  } finally {
    await llmControl(page.request, { latencyRules: [] });
  }
  await expect(replies.nth(1)).toContainText("Reply 2");
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 60_000 });
  await expect(page.getByTestId("dr-reply")).toBeFocused();
});

test("the clarification wizard: answers, a revised plan, approve, and the run starts from it; Stop ends it", async ({ page }) => {
  await page.goto("/deep-research/new");
  await page.getByLabel("Research question").fill("What drives urban heat islands?");
  await page.getByTestId("dr-clarify-first").click();
  await expect(page.getByTestId("dr-q-progress")).toContainText("Question 1 of 3");
  await page.getByTestId("dr-answer").fill("The last ten years.");
  await page.getByTestId("dr-q-next").click();
  await expect(page.getByTestId("dr-q-progress")).toContainText("Question 2 of 3");
  await page.getByTestId("dr-q-next").click();
  await page.getByTestId("dr-q-next").click();
  await expect(page.getByTestId("dr-proposed-plan")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("dr-plan-objective")).toHaveText(/^Refined: /);
  await shots(page, "plan");

  await page.getByTestId("dr-revise").click();
  await page.getByLabel("What should change?").fill("Add green roofs.");
  await page.getByTestId("dr-send-feedback").click();
  await expect(page.getByTestId("dr-plan-objective")).toHaveText(/^Refined revised: /, { timeout: 30_000 });
  await page.getByTestId("dr-approve").click();
  await expect(page).toHaveURL(/\/deep-research\/[^/]+$/);
  await expect(page.getByTestId("dr-task").filter({ hasText: "approved revised task 1" })).toHaveCount(1, { timeout: 60_000 });

  await page.getByTestId("dr-stop").click();
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 120_000 });
});

async function otherUser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-up");
  const password = "correct horse battery";
  await page.getByTestId("sign-up-email").fill(`dr-${Date.now().toString(36)}@quarry.test`);
  await page.getByTestId("sign-up-password").fill(password);
  await page.getByTestId("sign-up-confirm").fill(password);
  await page.getByTestId("sign-up-submit").click();
  await expect(page).not.toHaveURL(/sign-up/);
  return page;
}

test("another user's conversation is not found", async ({ page, browser }) => {
  const id = await startViaApi(page, { message: "Is tidal power predictable? #stop-at-1", researchMode: "semi-autonomous" });
  const other = await otherUser(browser);
  await other.goto(`/deep-research/${id}`);
  await expect(other.getByTestId("not-found")).toBeVisible();
  await expect(other.getByTestId("dr-page")).toHaveCount(0);
  await other.context().close();
  // Our own stops cleanly.
  await page.goto(`/deep-research/${id}`);
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 120_000 });
});
