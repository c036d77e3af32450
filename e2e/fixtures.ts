// The specs' `test`: Playwright's, with a `page` whose goto and reload return once the app's page is
// interactive. A page of the app shows its server-rendered HTML before React has hydrated it; a click
// in between is lost (a button) or follows the link (an anchor), which a loaded CI machine makes
// likely. components/providers.tsx marks <html data-hydrated> once the root has hydrated; from then on
// React replays a click on a part still hydrating.
import { test as base, type Page, type Response } from "@playwright/test";

export * from "@playwright/test";

const HYDRATION_TIMEOUT_MS = 30_000;

/** Waits for the app's page in `page` to be interactive, when `response` is one of the app's HTML pages. */
export async function untilInteractive(page: Page, response: Response | null): Promise<void> {
  if (!response || !(response.headers()["content-type"] ?? "").startsWith("text/html")) return;
  const baseURL = test.info().project.use.baseURL;
  if (baseURL && new URL(response.url()).origin !== new URL(baseURL).origin) return;
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", null, { timeout: HYDRATION_TIMEOUT_MS }).catch((error: unknown) => {
    throw new Error(`${response.url()} did not become interactive (hydrated) within ${HYDRATION_TIMEOUT_MS / 1000} s: ${error instanceof Error ? error.message : String(error)}`);
  });
}

export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await untilInteractive(page, response);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      await untilInteractive(page, response);
      return response;
    };
    await use(page);
  },
});
