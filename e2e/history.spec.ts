// History: newest first, filter by status, search by prompt, open, delete with confirmation.
import { expect, test } from "@playwright/test";
import { sameOrigin, shot, startResearch } from "./helpers";

test("history lists, filters, searches, opens and deletes", async ({ page, request }) => {
  const a = await startResearch(request, "Tidal energy economics in northern Europe", 1, 1);
  const b = await startResearch(request, "Microplastics in drinking water", 1, 1);
  for (const id of [a.id, b.id]) {
    await expect
      .poll(async () => ((await (await request.get(`/api/research/${id}`)).json()) as { status: string }).status, { timeout: 90_000 })
      .toBe("completed");
  }

  await page.goto("/history");
  const rows = page.getByTestId("history-row");
  await expect(rows.first()).toBeVisible();
  // Newest first.
  await expect(rows.first()).toHaveAttribute("data-research-id", b.id);

  await page.getByTestId("history-search").fill("microplastics");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Microplastics in drinking water");

  await page.getByTestId("history-filter-failed").click();
  await expect(page.getByTestId("history-empty")).toBeVisible();
  await page.getByTestId("history-filter-completed").click();
  await expect(rows).toHaveCount(1);

  await rows.first().getByTestId("history-open").click();
  await expect(page).toHaveURL(new RegExp(`/research/${b.id}$`));
  await page.goBack();

  await page.getByTestId("history-search").fill("");
  await page.getByTestId("history-filter-all").click();
  const row = page.locator(`[data-testid="history-row"][data-research-id="${a.id}"]`);
  await row.getByTestId("delete-research").click();
  await expect(page.getByTestId("confirm-dialog")).toBeVisible();
  await page.getByTestId("confirm-cancel").click();
  await expect(row).toBeVisible();
  await row.getByTestId("delete-research").click();
  await page.getByTestId("confirm-ok").click();
  await expect(row).toHaveCount(0);
  expect((await request.get(`/api/research/${a.id}`)).status()).toBe(404);
});

test("unknown pages and researches say so", async ({ page }) => {
  await page.goto("/no-such-page");
  await expect(page.getByTestId("not-found")).toBeVisible();
  await page.goto("/research/no-such-research");
  await expect(page.getByTestId("research-not-found")).toBeVisible();
});

test("a draft opened from History continues the wizard at its questions", async ({ page, request }) => {
  const prompt = "Community solar cooperatives in rural Spain";
  const q = await request.post("/api/research/questions", { headers: sameOrigin(), data: { initial_prompt: prompt, num_questions: 2 } });
  expect(q.status(), await q.text()).toBe(200);
  const { research_id, followup_questions } = (await q.json()) as { research_id: string; followup_questions: string[] };

  await page.goto("/history");
  await page.getByTestId("history-filter-draft").click();
  const row = page.locator(`[data-testid="history-row"][data-research-id="${research_id}"]`);
  await row.getByTestId("history-open").click();

  // The wizard, at the answers step, with the draft's own prompt and questions.
  await expect(page.getByTestId("wizard-step-2")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("prompt-summary")).toHaveText(prompt);
  for (const [i, question] of followup_questions.entries()) await expect(page.getByTestId(`question-${i}`)).toHaveText(question);
  await shot(page, "draft-continued");

  await page.getByTestId("answer-0").fill("Since 2019");
  await page.getByTestId("answer-1").fill("Policy makers");
  await page.getByTestId("depth-1").click();
  await page.getByTestId("breadth-1").click();
  await page.getByTestId("start-research").click();
  await expect(page).toHaveURL(new RegExp(`/research/${research_id}$`));
  const started = (await (await request.get(`/api/research/${research_id}`)).json()) as { status: string; followup_answers: string[] };
  expect(started.status).not.toBe("draft");
  expect(started.followup_answers).toEqual(["Since 2019", "Policy makers"]);
});
