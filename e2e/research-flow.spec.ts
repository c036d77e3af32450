// The main path: wizard → live tree → node details → report → citation snippet.
import { expect, test } from "./fixtures";
import { llmReset, shot } from "./helpers";

test.afterEach(async ({ request }) => llmReset(request));

test("the wizard validates, survives a reload, and starts a research", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "What do you want to know?" })).toBeVisible();
  await expect(page.locator("#account-slot")).toBeAttached();
  await expect(page.getByTestId("account-menu")).toBeVisible();

  // An empty prompt is refused next to its field.
  await page.getByTestId("generate-questions").click();
  await expect(page.getByTestId("error-initial_prompt")).toBeVisible();

  // The API's validation error lands beside the field it names.
  await page.getByTestId("prompt-input").fill("How are cities adapting to extreme heat waves?");
  await page.getByTestId("num-questions").fill("99");
  await page.getByTestId("generate-questions").click();
  await expect(page.getByTestId("error-num_questions")).toBeVisible();

  await page.getByTestId("num-questions").fill("3");
  await shot(page, "wizard-step1-light");
  await page.getByTestId("generate-questions").click();
  await expect(page.getByTestId("wizard-step-2")).toBeVisible();
  await expect(page.getByTestId("question-0")).not.toBeEmpty();
  await expect(page.getByTestId("question-2")).toBeVisible();

  await page.getByTestId("answer-0").fill("Europe and South Asia");
  await page.getByTestId("answer-1").fill("Since 2015");
  await page.getByTestId("depth-2").click();
  await page.getByTestId("breadth-2").click();
  // depth 2 × breadth 2: 2 + 2 = 4 queries, ≤ 28 pages, 1 + 1 + 2 + 1 = 5 to 35 LLM calls (with a summary per root branch)
  await expect(page.getByTestId("estimate-queries")).toHaveText("4");
  await expect(page.getByTestId("estimate-pages")).toHaveText("≤ 28");
  await expect(page.getByTestId("estimate-llm")).toHaveText("5–35");

  // A reload keeps the prompt, the questions and the answers.
  await page.reload();
  await expect(page.getByTestId("answer-0")).toHaveValue("Europe and South Asia");
  await expect(page.getByTestId("answer-1")).toHaveValue("Since 2015");
  await expect(page.getByTestId("prompt-summary")).toHaveText("How are cities adapting to extreme heat waves?");
  await expect(page.getByTestId("depth")).toHaveAttribute("data-value", "2");
  await shot(page, "wizard-step2-light", true);

  await page.getByTestId("start-research").click();
  await expect(page).toHaveURL(/\/research\/[^/]+$/);

  // The tree grows to 4 queries and all of them complete.
  const nodes = page.getByTestId("tree-node");
  await expect(nodes.first()).toBeVisible();
  await shot(page, "tree-live-light");
  await expect(nodes).toHaveCount(4, { timeout: 60_000 });
  await expect(page.locator('[data-testid="tree-node"][data-depth="2"]')).toHaveCount(2);
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  await expect(page.locator('[data-testid="tree-node"][data-status="completed"]')).toHaveCount(4);
  await expect(page.getByTestId("stat-queries")).toHaveText("4/4");

  // Opening a node shows its objective, its pages and what was extracted.
  await nodes.first().click();
  const detail = page.getByTestId("query-detail");
  await expect(detail).toBeVisible();
  await expect(page.getByTestId("query-detail-objective")).not.toBeEmpty();
  await expect(detail.getByTestId("query-website").first()).toBeVisible();
  await expect(detail.getByTestId("extracted-item").first()).toBeVisible();
  await shot(page, "tree-done-light");

  // Sources are one click away.
  await page.getByTestId("tab-sources").click();
  await expect(page.getByTestId("source-row").first()).toBeVisible();
  await page.getByTestId("source-toggle").first().click();
  await shot(page, "sources-light");

  // The report renders with a table of contents and citations that show their snippets.
  await page.getByTestId("tab-report").click();
  const report = page.getByTestId("report");
  await expect(report.locator("h1, h2").first()).toBeVisible();
  await expect(page.getByTestId("report-toc")).toBeAttached();
  const citation = page.getByTestId("citation").first();
  await expect(citation).toBeVisible();
  await expect(citation).toHaveAttribute("href", /^https?:\/\//);
  await citation.click();
  const card = page.getByTestId("citation-card");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("citation-snippet").first()).not.toBeEmpty();
  await shot(page, "report-citation-light");

  await page.keyboard.press("Escape");
  await expect(card).toBeHidden();

  // Sharing is one click from the research header.
  await page.getByTestId("open-share").click();
  await expect(page.getByTestId("share-panel")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("share-panel")).toBeHidden();
  const download = page.waitForEvent("download");
  await page.getByTestId("export-md").click();
  expect((await download).suggestedFilename()).toMatch(/\.md$/);
  await shot(page, "report-light", true);
});
