// A Deep Research conversation shared read-only: the owner creates a link on the conversation page,
// a signed-out visitor reads the title, objective, replies, plan, hypothesis and discoveries with
// their quotes, with none of the owner's controls; Settings lists the link; revoked, it opens the
// not-found page. Screenshots at 1280 and 390 px, light and dark.
import { expect, test } from "./fixtures";
import { E2E_USER, sameOrigin, shots } from "./helpers";

test.describe.configure({ timeout: 240_000 });

test("a conversation's share link shows it read-only to a signed-out visitor until it is revoked", async ({ page, browser }) => {
  const started = await page.request.post("/api/deep-research/start", { headers: sameOrigin(), data: { message: "How do mangroves protect coastlines? #stop-at-1", researchMode: "steering" } });
  expect(started.status(), await started.text()).toBe(200);
  const { conversationId } = (await started.json()) as { conversationId: string };
  await page.goto(`/deep-research/${conversationId}`);
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 120_000 });
  const owner = (await (await page.request.get(`/api/deep-research/conversations/${conversationId}`)).json()) as {
    state: { objective: string; conversationTitle: string | null };
    plan: { id: string; childResearchId: string | null }[];
    discoveries: { claim: string }[];
    messages: { role: string }[];
  };
  expect(owner.plan.length).toBeGreaterThan(0);
  expect(owner.discoveries.length).toBeGreaterThan(0);

  // The owner shares it from the conversation page (keyboard: the button is reachable and opens the dialog).
  await page.getByTestId("open-share").focus();
  await page.keyboard.press("Enter");
  const panel = page.getByTestId("share-panel");
  await expect(page.getByRole("dialog", { name: "Share this conversation" })).toBeVisible();
  await panel.getByTestId("share-create").click();
  const url = (await panel.getByTestId("share-url").textContent())!.trim();
  expect(url).toMatch(/\/share\/[\w-]{20,}$/);
  await expect(panel.getByTestId("share-row")).toHaveCount(1);
  await page.keyboard.press("Escape");

  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const anon = await visitor.newPage();
  const opened = await anon.goto(url);
  expect(opened?.status()).toBe(200);
  await expect(anon.getByTestId("shared-conversation")).toBeVisible();
  await expect(anon.getByTestId("shared-title")).toHaveText(owner.state.conversationTitle ?? owner.state.objective);
  await expect(anon.getByTestId("dr-objective")).toHaveText(owner.state.objective);
  await expect(anon.getByTestId("dr-mode")).toHaveText("Steering");
  await expect(anon.locator("[data-testid=dr-message][data-role=assistant]")).toHaveCount(owner.messages.filter((m) => m.role === "assistant").length);
  await expect(anon.getByTestId("dr-task")).toHaveCount(owner.plan.length);
  await expect(anon.getByTestId("dr-hypothesis")).not.toContainText("No hypothesis yet");
  await expect(anon.getByTestId("dr-discovery")).toHaveCount(owner.discoveries.length);
  // A discovery opens to its quotes and their sources.
  const first = anon.getByTestId("dr-discovery").first();
  await first.getByTestId("dr-discovery-toggle").click();
  await expect(first.getByTestId("dr-quote").first()).not.toBeEmpty();
  await expect(first.getByTestId("dr-quote-url").first()).toHaveAttribute("href", /^https?:\/\//);
  // Read-only: none of the owner's controls, no link to the tasks' trees, no owner email.
  for (const control of ["dr-reply", "dr-stop", "open-share", "dr-task-research", "account-email", "dr-composer"]) await expect(anon.getByTestId(control)).toHaveCount(0);
  for (const t of owner.plan) if (t.childResearchId) expect(await anon.locator(`a[href*="${t.childResearchId}"]`).count()).toBe(0);
  await expect(anon.locator("body")).not.toContainText(E2E_USER.email);
  await shots(anon, "shared-conversation");
  // The link opens the shared view only, not the conversation itself.
  await anon.goto(`/deep-research/${conversationId}`);
  await expect(anon).toHaveURL(/\/sign-in\?callbackUrl=/);

  // Settings lists the link as a conversation's; the owner revokes it on the conversation page.
  await page.goto("/settings");
  const listed = page.locator('[data-testid="share-row"][data-kind="conversation"]', { hasText: (owner.state.conversationTitle ?? owner.state.objective).slice(0, 40) });
  await expect(listed.getByTestId("share-state")).toHaveText("active");
  await expect(listed.getByTestId("share-open-count")).toHaveText("1");
  await page.goto(`/deep-research/${conversationId}`);
  await page.getByTestId("open-share").click();
  await panel.getByTestId("share-revoke").click();
  await expect(panel.getByTestId("share-row")).toHaveAttribute("data-active", "false");

  const gone = await anon.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(anon.getByTestId("share-not-found")).toBeVisible();
  await expect(anon.getByTestId("shared-conversation")).toHaveCount(0);
  await visitor.close();
});
