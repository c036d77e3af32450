// Signs up one user through the UI and saves the session for every other spec (and their
// `request` fixture). The e2e database is fresh per run; a rerun against a kept server signs in.
import { expect, test as setup } from "./fixtures";
import { AUTH_FILE, E2E_USER } from "./helpers";

setup("sign up the e2e user", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByTestId("sign-up-email").fill(E2E_USER.email);
  await page.getByTestId("sign-up-password").fill(E2E_USER.password);
  await page.getByTestId("sign-up-confirm").fill(E2E_USER.password);
  await page.getByTestId("sign-up-submit").click();
  const error = page.getByTestId("sign-up-error");
  await expect(page.getByTestId("prompt-input").or(error)).toBeVisible({ timeout: 30_000 });
  if (await error.isVisible()) {
    await page.goto("/sign-in");
    await page.getByTestId("sign-in-email").fill(E2E_USER.email);
    await page.getByTestId("sign-in-password").fill(E2E_USER.password);
    await page.getByTestId("sign-in-submit").click();
    await expect(page.getByTestId("prompt-input")).toBeVisible({ timeout: 30_000 });
  }
  await page.context().storageState({ path: AUTH_FILE });
});
