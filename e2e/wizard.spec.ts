// The wizard's first step: every problem shown at once beside its field, and a character counter.
import { expect, test } from "./fixtures";
import { freshWizard, shot } from "./helpers";

test("the first step shows every field error at once, and counts the prompt's characters", async ({ page }) => {
  await freshWizard(page);
  await expect(page.getByTestId("prompt-count")).toHaveText("0 / 10,000 characters");

  await page.getByTestId("num-questions").fill("0");
  await page.getByTestId("generate-questions").click();
  await expect(page.getByTestId("error-initial_prompt")).toBeVisible();
  await expect(page.getByTestId("error-num_questions")).toBeVisible();
  await expect(page.getByTestId("prompt-input")).toBeFocused();
  await expect(page.getByTestId("prompt-input")).toHaveAttribute("aria-invalid", "true");

  await page.getByTestId("prompt-input").fill("Heat pumps in cold climates");
  await expect(page.getByTestId("prompt-count")).toHaveText("27 / 10,000 characters");
  await page.getByTestId("prompt-input").fill("x".repeat(10_001));
  await expect(page.getByTestId("prompt-count")).toHaveText("10,001 / 10,000 characters");
  await page.getByTestId("num-questions").fill("2");
  await page.getByTestId("generate-questions").click();
  await expect(page.getByTestId("error-initial_prompt")).toContainText("at most 10,000 characters");
  await expect(page.getByTestId("error-num_questions")).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "wizard-errors-phone");
});
