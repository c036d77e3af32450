// The report viewer shows the citation check: the support rate, the flagged claims marked in the
// text, and a claim's verdict with the source's quote on hover.
import { expect, test } from "./fixtures";
import { hoverOverstatedClaim, llmControl, llmReset, shot, startResearch } from "./helpers";

test.afterEach(async ({ request }) => llmReset(request));

test("partly supported and uncited claims are marked in the report, with the source's quote on hover", async ({ page, request }) => {
  test.setTimeout(180_000);
  await llmControl(request, { latencyMs: 0, verify: { plantUnsupported: true, plantPartial: true, plantUncited: true, forgeQuotes: false } });
  const { id } = await startResearch(request, "Heat pump adoption in Nordic countries", 1, 2);
  await expect.poll(async () => ((await (await request.get(`/api/research/${id}`)).json()) as { status: string }).status, { timeout: 90_000 }).toBe("completed");
  const verification = (await (await request.get(`/api/research/${id}/verification`)).json()) as { support_rate: number; claims: { verdict: string; sentence: string }[] };
  const flagged = verification.claims.filter((c) => c.verdict !== "supported");
  expect(flagged.map((c) => c.verdict)).toContain("partial");
  expect(flagged.map((c) => c.verdict)).toContain("uncited");
  expect(flagged.map((c) => c.verdict)).not.toContain("unsupported");

  await page.goto(`/research/${id}/report`);
  const panel = page.getByTestId("report-verification");
  await expect(panel).toHaveAttribute("data-status", "done");
  await expect(panel).toHaveAttribute("data-support-rate", String(Math.round(verification.support_rate * 100)));
  await expect(panel).toContainText(`Support rate ${Math.round(verification.support_rate * 100)}%`);
  // Every flagged claim is marked in the text (the unsupported one was repaired away).
  await expect(page.getByTestId("report")).toHaveAttribute("data-claim-marks", String(flagged.length));
  await panel.locator("summary").click();
  await expect(page.getByTestId("flagged-claim")).toHaveCount(flagged.length);
  await expect(page.locator('[data-testid="flagged-claim"][data-verdict="partial"]').first()).toContainText("Source says");

  // Hovering the overstated sentence shows its verdict and the source's quote.
  await hoverOverstatedClaim(page, "report");
  await shot(page, "report-verification-marks");
});
