// Documents: create a collection, drop files into it (a good one indexed, a broken PDF refused with its
// name), each with its own status line; the collection is then offered as a source in the wizard, the
// Deep Research start page and the Quick answer page.
import { expect, test } from "./fixtures";

test("upload documents with per-file status, then choose the collection as a source everywhere", async ({ page }) => {
  const name = `Field notes ${Date.now()}`;
  await page.goto("/");
  await page.getByTestId("nav-collections").click();
  await expect(page).toHaveURL(/\/collections$/);
  await page.getByTestId("collection-name").fill(name);
  await page.getByTestId("collection-create").click();
  const card = page.locator('[data-testid="collection"]', { hasText: name });
  await expect(card).toBeVisible();
  await card.getByRole("button", { name }).click();

  await card.getByTestId("upload-input").setInputFiles([
    { name: "moss.md", mimeType: "text/markdown", buffer: Buffer.from("# Moss\n\n## Site nine\n\nThe moss at site nine glowed blue under ultraviolet light.") },
    { name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 not really a pdf") },
  ]);
  const items = card.getByTestId("upload-item");
  await expect(items.filter({ hasText: "moss.md" })).toHaveAttribute("data-state", "done");
  await expect(items.filter({ hasText: "broken.pdf" })).toHaveAttribute("data-state", "failed");
  await expect(items.filter({ hasText: "broken.pdf" })).toContainText('"broken.pdf"');
  await expect(card.getByTestId("document")).toHaveCount(1);

  // The document view shows the passage under its section.
  await card.getByRole("link", { name: "moss.md" }).click();
  await expect(page.getByRole("heading", { name: "Moss › Site nine" })).toBeVisible();
  await expect(page.getByText("glowed blue under ultraviolet light")).toBeVisible();

  for (const path of ["/research/new", "/deep-research/new", "/answer"]) {
    await page.goto(path);
    if (path === "/research/new") {
      // The wizard asks where to search on its second step, beside depth and breadth.
      await page.locator("#prompt").fill("What glows at site nine?");
      await page.getByTestId("generate-questions").click();
    }
    const picker = page.getByTestId("source-picker");
    await expect(picker.getByText(name)).toBeVisible();
    await expect(picker.getByTestId("source-web")).toBeChecked();
  }
});
