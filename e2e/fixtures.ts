// The specs' `test`: Playwright's, with pages (the `page` fixture's and those of the contexts a spec
// makes) whose goto and reload return once the app's page is interactive. A page of the app shows its
// server-rendered HTML before React has hydrated it; a click in between is lost (a button) or follows
// the link (an anchor); a loaded CI machine makes that likely.
// components/providers.tsx marks <html data-hydrated> once the root has hydrated; from then on React
// replays a click on a part still hydrating.
import { test as base, type Page, type Response } from "@playwright/test";
import { sameOrigin } from "./helpers";

export * from "@playwright/test";

const HYDRATION_TIMEOUT_MS = 30_000;

/** Waits for the app's page in `page` to be interactive, when `response` is one of the app's HTML pages. */
async function untilInteractive(page: Page, response: Response | null): Promise<void> {
  if (!response || !(response.headers()["content-type"] ?? "").startsWith("text/html")) return;
  if (new URL(response.url()).origin !== sameOrigin().origin) return;
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", null, { timeout: HYDRATION_TIMEOUT_MS }).catch((error: unknown) => {
    throw new Error(`${response.url()} did not become interactive (hydrated) within ${HYDRATION_TIMEOUT_MS / 1000} s: ${error instanceof Error ? error.message : String(error)}`);
  });
}

const interactive = new WeakSet<Page>();

/** `page` with a goto and a reload that return once the app's page is interactive (once per page). */
function withInteractiveNavigation(page: Page): Page {
  if (interactive.has(page)) return page;
  interactive.add(page);
  const waiting =
    <A extends unknown[]>(navigate: (...args: A) => Promise<Response | null>) =>
    async (...args: A) => {
      const response = await navigate(...args);
      await untilInteractive(page, response);
      return response;
    };
  page.goto = waiting(page.goto.bind(page));
  page.reload = waiting(page.reload.bind(page));
  return page;
}

export const test = base.extend({
  page: async ({ page }, use) => {
    await use(withInteractiveNavigation(page));
  },
  // The pages of contexts a spec makes itself (a signed-out visitor, a second tab) navigate the same way.
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        const newPage = context.newPage.bind(context);
        context.newPage = async () => withInteractiveNavigation(await newPage());
        return context;
      };
      await use(browser);
    },
    { scope: "worker" },
  ],
});
