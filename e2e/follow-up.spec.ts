// After a report: a follow-up question (here going deeper on one branch) starts a linked research.
import { expect, test } from "./fixtures";
import { shot, startResearch } from "./helpers";

test("a follow-up from the report page creates a linked research", async ({ page, request }) => {
  const parent = await startResearch(request, "Offshore wind turbine maintenance costs", 1, 2);
  await expect
    .poll(async () => ((await (await request.get(`/api/research/${parent.id}`)).json()) as { status: string }).status, { timeout: 90_000 })
    .toBe("completed");
  const view = (await (await request.get(`/api/research/${parent.id}`)).json()) as { serp_queries: { query_id: string; text: string }[] };
  const branch = view.serp_queries[0];

  await page.goto(`/research/${parent.id}/report`);
  const form = page.getByTestId("follow-up-form");
  await expect(form).toBeVisible();
  await page.getByTestId("follow-up-start").click();
  await expect(page.getByText("Ask the question to follow up with.")).toBeVisible();
  await page.getByTestId("follow-up-question").fill("Which maintenance costs fall fastest with drones?");
  await page.getByTestId("follow-up-branch").selectOption(branch.query_id);
  await page.getByTestId("follow-up-breadth-1").click();
  await shot(page, "follow-up-form");
  await page.getByTestId("follow-up-start").click();

  await expect(page).not.toHaveURL(new RegExp(`/research/${parent.id}`));
  const childId = /\/research\/([^/?#]+)/.exec(page.url())![1];
  const child = (await (await request.get(`/api/research/${childId}`)).json()) as { initial_prompt: string; follows: { research_id: string; query_id: string } };
  expect(child.initial_prompt).toBe("Which maintenance costs fall fastest with drones?");
  expect(child.follows).toMatchObject({ research_id: parent.id, query_id: branch.query_id });
  await expect
    .poll(async () => ((await (await request.get(`/api/research/${childId}`)).json()) as { status: string }).status, { timeout: 90_000 })
    .toBe("completed");

  await page.goto(`/research/${childId}/report`);
  await expect(page.getByTestId("follows")).toContainText("Offshore wind turbine maintenance costs");
  await page.getByTestId("follows").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/research/${parent.id}/report$`));
  const list = page.getByTestId("follow-up-list");
  await expect(list).toContainText("Which maintenance costs fall fastest with drones?");
  await expect(list).toContainText(branch.text);
  await shot(page, "follow-up-linked");
});
