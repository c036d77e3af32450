// History: newest first, filter by status and kind, search by text, open, delete with confirmation;
// Deep Research conversations listed with tree researches.
import { expect, test } from "./fixtures";
import { sameOrigin, shot, shots, startResearch } from "./helpers";

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

test("Deep Research conversations are listed with tree researches, filtered by kind and status, searched and opened", async ({ page, request }) => {
  test.setTimeout(240_000);
  const tree = await startResearch(request, "Heat pumps in cold climates", 1, 1);
  const started = await request.post("/api/deep-research/start", { headers: sameOrigin(), data: { message: "How do kelp forests store carbon? #stop-at-1", researchMode: "steering" } });
  expect(started.status(), await started.text()).toBe(200);
  const { conversationId } = (await started.json()) as { conversationId: string };

  await page.goto("/history");
  const rows = page.getByTestId("history-row");
  const conv = page.locator(`[data-testid="history-row"][data-kind="deep"][data-id="${conversationId}"]`);
  // Newest first: the conversation was started after the research.
  await expect(rows.first()).toHaveAttribute("data-id", conversationId);
  await expect(conv).toContainText("kelp forests");
  await expect(conv.getByTestId("history-kind")).toHaveText("Deep research");
  await expect(page.locator(`[data-testid="history-row"][data-research-id="${tree.id}"]`)).toBeVisible();
  // Its status follows the run: running, then completed once the steering iteration ends.
  await expect(conv).toHaveAttribute("data-status", "completed", { timeout: 120_000 });

  // Kind filter.
  await page.getByTestId("history-kind-deep").click();
  await expect(page.getByTestId("history-kind-deep")).toHaveAttribute("aria-checked", "true");
  await expect(conv).toBeVisible();
  await expect(page.locator('[data-testid="history-row"]:not([data-kind="deep"])')).toHaveCount(0);
  await page.getByTestId("history-kind-tree").click();
  await expect(conv).toHaveCount(0);
  await expect(page.locator(`[data-testid="history-row"][data-research-id="${tree.id}"]`)).toBeVisible();
  await page.getByTestId("history-kind-all").click();

  // Search (on the server) across kinds: only the conversation matches.
  await page.getByTestId("history-search").fill("KELP FORESTS");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-id", conversationId);
  // Status: it is not running any more; it is completed.
  await page.getByTestId("history-filter-running").click();
  await expect(page.getByTestId("history-empty")).toBeVisible();
  await page.getByTestId("history-filter-completed").click();
  await expect(rows).toHaveCount(1);
  await page.getByTestId("history-filter-all").click();
  await page.getByTestId("history-search").fill("");
  await expect(page.locator(`[data-testid="history-row"][data-research-id="${tree.id}"]`)).toBeVisible();
  await shots(page, "history-with-conversations");

  // Keyboard: the row's link is reachable and opens the conversation.
  await conv.getByTestId("history-open").focus();
  await expect(conv.getByTestId("history-open")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/deep-research/${conversationId}$`));
  await expect(page.getByTestId("dr-title")).toBeVisible();
});
