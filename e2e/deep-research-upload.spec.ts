// A start with a dataset shows its upload's progress: an accessible progress bar with the share and
// the bytes sent, while the file goes (the upload throttled to 4 MB/s through Chromium's DevTools
// protocol), then the conversation opens with the file listed.
import { expect, test } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

test("a start with a dataset shows the upload's progress, then opens the conversation", async ({ page }) => {
  await page.goto("/deep-research/new");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * 1024 * 1024 });
  await page.getByLabel("Research question").fill("Sales by region #stop-at-1");
  await page.getByTestId("mode-steering").click();
  const rows = "region,units\n" + "North,12\nSouth,7\n".repeat(1_000_000);
  await page.getByTestId("dr-file-input").setInputFiles({ name: "sales.csv", mimeType: "text/csv", buffer: Buffer.from(rows) });
  await page.getByTestId("dr-start-now").click();

  const bar = page.getByRole("progressbar", { name: "Dataset upload progress" });
  await expect(bar).toBeVisible();
  await expect(page.getByTestId("dr-upload-status")).toHaveText(/^Uploading datasets: \d+% · [\d.]+ (B|KiB|MiB) of 16\.2 MiB$/);
  // It moves: a share between 1 and 99 % is shown on the way.
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(bar).toHaveAttribute("aria-valuetext", /^\d+%, [\d.]+ (B|KiB|MiB) of 16\.2 MiB$/);

  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(page).toHaveURL(/\/deep-research\/[^/]+$/, { timeout: 60_000 });
  await expect(page.getByTestId("dr-datasets")).toContainText("sales.csv");
  await expect(bar).toHaveCount(0);
});
