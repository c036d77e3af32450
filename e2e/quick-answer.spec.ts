// Quick answer: ask in the question box, watch the steps arrive, get the answer with references
// whose quote shows on hover; a reload replays the run from its stored events.
import { expect, test } from "./fixtures";
import { llmControl, llmReset } from "./helpers";

test("a question is answered live: steps, then the answer with references and their quotes on hover", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("nav-answer").click();
  await expect(page).toHaveURL(/\/answer$/);
  await page.getByTestId("answer-question").fill("How much storage did grid batteries add in 2024?");
  await page.getByTestId("answer-submit").click();
  await expect(page).toHaveURL(/\/answer\?id=/);

  const steps = page.getByTestId("answer-step");
  await expect(steps.first()).toHaveAttribute("data-action", "search");
  await expect(page.getByTestId("answer-result")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("answer-asked")).toHaveText("How much storage did grid batteries add in 2024?");
  // The answer comes first; the steps fold below it once it is there.
  const fold = page.getByTestId("answer-steps-fold");
  expect(await page.getByTestId("answer-result").evaluate((result, f) => Boolean(result.compareDocumentPosition(f!) & Node.DOCUMENT_POSITION_FOLLOWING), await fold.elementHandle())).toBe(true);
  await expect(fold).not.toHaveAttribute("open");
  await fold.locator("summary").click();
  await expect(page.locator('[data-testid="answer-step"][data-action="visit"]').first()).toBeVisible();
  await expect(page.getByTestId("answer-step-think").first()).not.toBeEmpty();
  await expect(page.getByTestId("answer-running")).toHaveCount(0);

  const reference = page.getByTestId("answer-reference").first();
  const quote = reference.getByTestId("answer-reference-quote");
  await expect(quote).toBeHidden();
  await reference.getByRole("link").hover();
  await expect(quote).toBeVisible();
  const text = (await quote.textContent())!.replace(/[“”]/g, "").trim();
  expect(text.length).toBeGreaterThan(20);
  await expect(page.getByTestId("answer-text")).toContainText(text.slice(0, 30));

  // The answer's [^n] markers are footnote links to the n-th source, named by it, not plain text.
  await expect(page.getByTestId("answer-text")).not.toContainText("[^");
  const citation = page.getByTestId("answer-citation").first();
  await expect(citation).toBeVisible();
  const n = Number((await citation.textContent())!.replace(/\D/g, ""));
  expect(n).toBeGreaterThanOrEqual(1);
  expect(await citation.evaluate((a) => a.parentElement?.tagName)).toBe("SUP");
  const cited = page.getByTestId("answer-reference").nth(n - 1);
  const title = (await cited.getByRole("link").textContent())!.replace(/^\[\d+\]\s*/, "").trim();
  await expect(citation).toHaveAccessibleName(`Source ${n}: ${title}`);
  await citation.click();
  await expect(page).toHaveURL(new RegExp(`#answer-ref-${n}$`));
  await expect(cited).toBeFocused();
  // Focused, the cited source shows its quote.
  await expect(cited.getByTestId("answer-reference-quote")).toBeVisible();

  // A reload replays the stored run; the question is listed among the recent ones.
  const stepCount = await steps.count();
  await page.reload();
  await expect(page.getByTestId("answer-result")).toBeVisible();
  await expect(steps).toHaveCount(stepCount);
  await expect(page.getByTestId("answer-asked")).toHaveText("How much storage did grid batteries add in 2024?");
  await expect(page.getByTestId("answer-history")).toContainText("How much storage did grid batteries add in 2024?");
  // History lists it too, and opens it again.
  await page.getByTestId("nav-history").click();
  const row = page.locator("[data-testid=history-row][data-kind=answer]").filter({ hasText: "How much storage did grid batteries add in 2024?" }).first();
  await row.getByTestId("history-open").click();
  await expect(page).toHaveURL(/\/answer\?id=/);
  await expect(page.getByTestId("answer-result")).toBeVisible();
});

test("a trivial question is answered at once", async ({ page }) => {
  await page.goto("/answer");
  await page.getByTestId("answer-question").fill("What is 1+1=?");
  await page.getByTestId("answer-submit").click();
  await expect(page.getByTestId("answer-text")).toHaveText("2", { timeout: 30_000 });
  await expect(page.getByTestId("answer-step")).toHaveCount(1);
  await expect(page.getByTestId("answer-reference")).toHaveCount(0);
});

test("a running answer can be cancelled from the page; the recent list shows it cancelled", async ({ page, request }) => {
  const question = `An endless question about grid batteries in 2024 (${Date.now()})`;
  // At the fakes' usual 150 ms a call the whole endless question (31 steps) could end before a slow
  // browser clicked Cancel; at 2 s a call it is still running then, however loaded the machine.
  await llmControl(request, { latencyMs: 2000 });
  try {
    await page.goto("/answer");
    await page.getByTestId("answer-question").fill(question);
    await page.getByTestId("answer-submit").click();
    await expect(page).toHaveURL(/\/answer\?id=/);
    // One click, as a person makes it: the question shows with the run's view (no line appears above
    // the button a moment later), and opening the run resets nothing after the click.
    await page.getByTestId("answer-cancel").click({ timeout: 10_000 });
    const runError = page.getByTestId("answer-run-error");
    await expect(runError.or(page.getByText("Cancelling…")).first()).toBeVisible({ timeout: 5_000 });
    await expect(runError).toContainText(/cancel/i, { timeout: 30_000 });
    await expect(page.getByTestId("answer-cancel")).toHaveCount(0);
    await expect(page.getByTestId("answer-history")).toContainText(question);
    await expect(page.getByTestId("answer-history-row").filter({ hasText: question })).toContainText(/cancel/i);
  } finally {
    await llmReset(request);
  }
});
