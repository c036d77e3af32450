// Accounts from a user's side: sign-up and sign-in in a clean browser, an API token used from
// outside the browser until it is revoked, and a share link opened by a signed-out visitor.
import { expect, test, type Browser, type BrowserContext, type Page } from "./fixtures";
import { E2E_USER, shot, startResearch } from "./helpers";

// The project's default storageState is the signed-in e2e user; these contexts start with nothing.
const SIGNED_OUT = { cookies: [], origins: [] };
const PASSWORD = "correct horse battery";

function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@quarry.test`;
}

async function signedOutPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  return { context, page: await context.newPage() };
}

async function fillSignUp(page: Page, email: string, password: string, confirm = password): Promise<void> {
  await page.getByTestId("sign-up-email").fill(email);
  await page.getByTestId("sign-up-password").fill(password);
  await page.getByTestId("sign-up-confirm").fill(confirm);
  await page.getByTestId("sign-up-submit").click();
}

async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId("sign-in-email").fill(email);
  await page.getByTestId("sign-in-password").fill(password);
  await page.getByTestId("sign-in-submit").click();
}

test("a new user signs up, signs out, and signs in again", async ({ browser }) => {
  const { context, page } = await signedOutPage(browser);
  const email = uniqueEmail("signup");

  // Signed out, a protected page sends you to sign-in and remembers where you were going.
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fsettings$/);
  await expect(page.getByTestId("sign-in-form")).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveCount(0);

  await page.getByTestId("sign-up-link").click();
  await expect(page).toHaveURL(/\/sign-up\?callbackUrl=%2Fsettings$/);
  await fillSignUp(page, email, PASSWORD, "not the same password");
  await expect(page.getByTestId("sign-up-error")).toHaveText("The passwords do not match.");
  await expect(page).toHaveURL(/\/sign-up/);

  await fillSignUp(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveText(email);

  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByTestId("account-email")).toHaveCount(0);
  // The session is really gone, not just hidden.
  await page.goto("/history");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fhistory$/);

  await fillSignIn(page, email, "a wrong password");
  await expect(page.getByTestId("sign-in-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/sign-in/);
  // The email is kept so that only the password needs retyping.
  await expect(page.getByTestId("sign-in-email")).toHaveValue(email);

  await fillSignIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
  await context.close();
});

test("an API token works from a script until it is revoked", async ({ browser, baseURL }) => {
  const { context, page } = await signedOutPage(browser);
  const email = uniqueEmail("tokens");
  await page.goto("/sign-up?callbackUrl=%2Fsettings");
  await fillSignUp(page, email, PASSWORD);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByText("No tokens yet.")).toBeVisible();

  const name = "laptop script";
  await page.getByTestId("token-name").fill(name);
  await page.getByTestId("token-create").click();
  const shown = page.getByTestId("token-value");
  await expect(shown).toHaveText(/^[\w-]+\.[\w-]+\.[\w-]+$/); // a JWT
  const token = (await shown.textContent())!.trim();
  const row = page.locator(`[data-testid="token-row"][data-token-name="${name}"]`);
  await expect(row.getByTestId("token-state")).toHaveText("active");
  await expect(row.getByTestId("token-last-used")).toHaveText("never");
  await shot(page, "settings-token-created");

  // Shown once: dismissed, it is gone, and a reload does not bring it back.
  await page.getByTestId("token-done").click();
  await expect(shown).toBeHidden();
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByTestId("token-value")).toHaveCount(0);

  // Node's fetch: no cookies, only what a script would send.
  const api = (path: string, init: RequestInit = {}, bearer: string | null = token) =>
    fetch(new URL(path, baseURL), { ...init, headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...init.headers } });

  const anonymous = await api("/api/research", {}, null);
  expect(anonymous.status).toBe(401);

  const list = await api("/api/research");
  expect(list.status).toBe(200);
  // The token acts as its owner, a new user with no researches yet.
  expect(await list.json()).toMatchObject({ researches: [] });

  // A token may change state without an Origin header (bearer requests are not CSRF-checked).
  const draft = await api("/api/research/questions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ initial_prompt: "Which cities run district heating on waste heat?", num_questions: 1 }),
  });
  expect(draft.status, await draft.clone().text()).toBe(200);
  const { research_id } = (await draft.json()) as { research_id: string };
  expect((await api(`/api/research/${research_id}`)).status).toBe(200);

  await page.reload();
  await expect(row.getByTestId("token-last-used")).toHaveText("just now");
  await row.getByTestId("token-revoke").click();
  await expect(row.getByTestId("token-state")).toHaveText("revoked");
  await expect(row.getByTestId("token-revoke")).toHaveCount(0);
  await shot(page, "settings-token-revoked");

  const refused = await api("/api/research");
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({ error: expect.stringContaining("API token"), code: "unauthorized:auth" });
  expect((await api(`/api/research/${research_id}`)).status).toBe(401);
  await context.close();
});

interface OwnerView {
  status: string;
  serp_queries: { text: string }[];
  successful_scraped_websites: { url: string }[];
}

test("a share link shows one report read-only to a signed-out visitor until it is revoked", async ({ page, request, browser }) => {
  const { id, prompt } = await startResearch(request, "How do community solar gardens share their output?", 1, 1);
  const view = async () => (await (await request.get(`/api/research/${id}`)).json()) as OwnerView;
  await expect.poll(async () => (await view()).status, { timeout: 90_000 }).toBe("completed");
  const owner = await view();
  const report = await (await request.get(`/api/research/${id}/report`)).text();
  const heading = /^#{1,3}\s+(.+)$/m.exec(report)?.[1]?.trim();
  expect(heading, "the report has a heading").toBeTruthy();

  await page.goto(`/research/${id}`);
  await page.getByTestId("open-share").click();
  const panel = page.getByTestId("share-panel");
  await panel.getByTestId("share-create").click();
  const url = (await panel.getByTestId("share-url").textContent())!.trim();
  expect(url).toMatch(/\/share\/[\w-]{20,}$/);
  await expect(panel.getByTestId("share-row")).toHaveCount(1);
  await expect(panel.getByTestId("share-open-count")).toHaveText("0");

  const { context: visitor, page: anon } = await signedOutPage(browser);
  const opened = await anon.goto(url);
  expect(opened?.status()).toBe(200);
  await expect(anon).toHaveURL(url);
  await expect(anon.getByTestId("shared-prompt")).toHaveText(prompt);
  await expect(anon.getByTestId("shared-report")).toContainText(heading!);
  await expect(anon.getByTestId("shared-source")).toHaveCount(new Set(owner.successful_scraped_websites.map((w) => w.url)).size);
  await expect(anon.getByTestId("shared-source").first()).toBeVisible();
  await expect(anon.getByTestId("shared-query")).toHaveCount(owner.serp_queries.length);
  await expect(anon.getByTestId("shared-query").first()).toContainText(owner.serp_queries[0].text);
  // Read-only and anonymous: none of the owner's controls, no owner email, a "Sign in" link.
  for (const control of ["open-share", "cancel-research", "export-md", "account-email"]) {
    await expect(anon.getByTestId(control)).toHaveCount(0);
  }
  // Every export, read-only, through the share link.
  for (const format of ["md", "pdf", "docx"]) await expect(anon.getByTestId(`shared-export-${format}`)).toHaveAttribute("href", new RegExp(`/api/share/[^/]+/export\\?format=${format}$`));
  await expect(anon.locator("body")).not.toContainText(E2E_USER.email);
  await expect(anon.getByTestId("account-menu").getByRole("link", { name: "Sign in" })).toBeVisible();
  await shot(anon, "shared-report", true);
  // The link opens that report only, not the research itself.
  await anon.goto(`/research/${id}`);
  await expect(anon).toHaveURL(/\/sign-in\?callbackUrl=/);

  // The owner sees the opening (the panel reloads its links when it opens).
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await page.getByTestId("open-share").click();
  await expect(panel.getByTestId("share-open-count")).toHaveText("1");
  await panel.getByTestId("share-revoke").click();
  await expect(panel.getByTestId("share-row")).toHaveAttribute("data-active", "false");
  await expect(panel.getByTestId("share-row")).toContainText("revoked");

  const gone = await anon.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(anon.getByTestId("share-not-found")).toBeVisible();
  await expect(anon.getByTestId("shared-report")).toHaveCount(0);
  await expect(anon).toHaveURL(url);
  await shot(anon, "shared-revoked");
  await visitor.close();

  // Settings lists the same link, revoked, with its one opening.
  await page.goto("/settings");
  const listed = page.locator('[data-testid="share-row"]', { hasText: prompt });
  await expect(listed.getByTestId("share-state")).toHaveText("revoked");
  await expect(listed.getByTestId("share-open-count")).toHaveText("1");
});
