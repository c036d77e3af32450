// The citation check where a report is read besides its own viewer: a Deep Research write-up on the
// conversation page, and shared pages (a tree report's and a conversation's), read-only — the
// support rate, the flagged claims marked in the text, and the source's quote on hover.
import { expect, test, type Page } from "./fixtures";
import { hoverOverstatedClaim, llmControl, llmReset, sameOrigin, shot, startResearch } from "./helpers";

test.describe.configure({ timeout: 240_000 });
test.afterEach(async ({ request }) => llmReset(request));

const PLANTS = { plantUnsupported: true, plantPartial: true, plantUncited: true, forgeQuotes: false };

interface Checked {
  support_rate: number;
  claims: { verdict: string }[];
}

/** The panel states the rate, every flagged claim is marked in `article`, and hovering the overstatement shows its quote. */
async function expectMarks(page: Page, articleTestId: string, v: Checked) {
  const flagged = v.claims.filter((c) => c.verdict !== "supported");
  const panel = page.getByTestId("report-verification");
  await expect(panel).toHaveAttribute("data-status", "done");
  await expect(panel).toContainText(`Support rate ${Math.round(v.support_rate * 100)}%`);
  await expect(page.getByTestId(articleTestId)).toHaveAttribute("data-claim-marks", String(flagged.length));
  await hoverOverstatedClaim(page, articleTestId);
}

async function shareUrl(page: Page, path: string): Promise<string> {
  const res = await page.request.post(`${path}/shares`, { headers: sameOrigin(), data: {} });
  expect(res.status(), await res.text()).toBe(201);
  return `/share/${((await res.json()) as { token: string }).token}`;
}

test("a Deep Research write-up is marked on the conversation page and on its shared page", async ({ page, browser }) => {
  await llmControl(page.request, { latencyMs: 0, verify: PLANTS });
  const started = await page.request.post("/api/deep-research/start", { headers: sameOrigin(), data: { message: "How do mangroves protect coastlines?", researchMode: "steering" } });
  expect(started.status(), await started.text()).toBe(200);
  const { conversationId } = (await started.json()) as { conversationId: string };
  await page.goto(`/deep-research/${conversationId}`);
  await expect(page.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 150_000 });
  const v = (await (await page.request.get(`/api/deep-research/conversations/${conversationId}/verification`)).json()) as Checked;
  expect(v.claims.map((c) => c.verdict)).toContain("partial");
  await expectMarks(page, "dr-verified-reply", v);
  await shot(page, "dr-verification-marks");

  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const anon = await visitor.newPage();
  await anon.goto(await shareUrl(page, `/api/deep-research/conversations/${conversationId}`));
  await expectMarks(anon, "dr-verified-reply", v);
  await shot(anon, "dr-shared-verification-marks");
  await visitor.close();
});

test("a shared tree report is marked read-only, with the quote on hover", async ({ page, browser, request }) => {
  await llmControl(request, { latencyMs: 0, verify: PLANTS });
  const { id } = await startResearch(request, "Heat pump adoption in Nordic countries", 1, 2);
  await expect.poll(async () => ((await (await request.get(`/api/research/${id}`)).json()) as { status: string }).status, { timeout: 90_000 }).toBe("completed");
  const v = (await (await request.get(`/api/research/${id}/verification`)).json()) as Checked;
  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const anon = await visitor.newPage();
  await anon.goto(await shareUrl(page, `/api/research/${id}`));
  await expectMarks(anon, "shared-report", v);
  await shot(anon, "shared-report-verification-marks");
  await visitor.close();
});
