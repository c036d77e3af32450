// Documents: create a collection (its page opens), drop files into it — a good one indexed, a Latin-1
// text read with its encoding named, a broken PDF refused with its name — with the batch's overall
// progress and each file's line; the failed upload stays listed with its reason after a reload until
// dismissed. The collection is then offered as a source in the wizard, the Deep Research start page and
// the Quick answer page.
import { expect, test } from "./fixtures";

test("upload documents with overall and per-file status, failed ones kept until dismissed, then choose the collection as a source everywhere", async ({ page }) => {
  const name = `Field notes ${Date.now()}`;
  await page.goto("/");
  await page.getByTestId("nav-collections").click();
  await expect(page).toHaveURL(/\/collections$/);
  await page.getByTestId("collection-name").fill(name);
  await page.getByTestId("collection-create").click();
  // A new collection opens on its own page.
  await expect(page).toHaveURL(/\/collections\/[^/]+$/);
  await expect(page.getByTestId("collection-title")).toHaveText(name);

  await page.getByTestId("upload-input").setInputFiles([
    { name: "moss.md", mimeType: "text/markdown", buffer: Buffer.from("# Moss\n\n## Site nine\n\nThe moss at site nine glowed blue under ultraviolet light.") },
    { name: "café.txt", mimeType: "text/plain", buffer: Buffer.from("Notes from the caf\xe9: cr\xe8me of lichen.", "latin1") },
    { name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 not really a pdf") },
  ]);
  const items = page.getByTestId("upload-item");
  await expect(items.filter({ hasText: "moss.md" })).toHaveAttribute("data-state", "done");
  await expect(items.filter({ hasText: "café.txt" })).toHaveAttribute("data-state", "done");
  await expect(items.filter({ hasText: "café.txt" })).toContainText("read as ISO-8859-1");
  await expect(items.filter({ hasText: "broken.pdf" })).toHaveAttribute("data-state", "failed");
  await expect(items.filter({ hasText: "broken.pdf" })).toContainText('"broken.pdf"');
  await expect(page.getByTestId("upload-summary")).toContainText("3 files uploaded");
  await expect(page.getByTestId("upload-summary")).toContainText("2 indexed · 1 failed");
  await expect(page.locator('[data-testid="document"][data-status="ready"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="document"]', { hasText: "café.txt" })).toContainText("ISO-8859-1");

  // After a reload the batch's lines are gone, the failed upload is not: listed with its reason until dismissed.
  await page.reload();
  const failed = page.getByTestId("failed-uploads");
  await expect(failed).toContainText("broken.pdf");
  await expect(failed).toContainText("the PDF is damaged and cannot be read");
  await failed.getByRole("button", { name: "Dismiss broken.pdf" }).click();
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId("document")).toHaveCount(2);

  // The search finds the passage; the document view shows it under its section.
  await page.getByTestId("passage-search-input").fill("ultraviolet moss");
  await page.getByTestId("passage-search-submit").click();
  await expect(page.getByTestId("passage-hit").first()).toContainText("Moss › Site nine");
  // The list shows a document by its title ("Moss", its first heading), its file name beneath.
  await page.locator('[data-testid="document"]', { hasText: "moss.md" }).getByRole("link", { name: "Moss" }).click();
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
