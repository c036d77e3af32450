// Issue 14, point 9: accessibility. axe-core (WCAG 2 A/AA) on every page state at 1280 and 390 px in
// the light and the dark theme, failing on any serious or critical violation; the query tree walked
// with the keyboard; the research page's live region; focus after the wizard's steps and failed forms.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "./fixtures";
import { THEME_STORAGE_KEY } from "../components/theme-script";
import { freshWizard, llmControl, llmReset, sameOrigin, shot, startFailingResearch, startResearch } from "./helpers";

test.describe.configure({ timeout: 300_000 });
test.afterEach(async ({ request }) => llmReset(request));

const WIDTHS = [
  { width: 1280, height: 860 },
  { width: 390, height: 844 },
];
const THEMES = ["light", "dark"] as const;
const SIGNED_OUT = { cookies: [], origins: [] };

interface Finding {
  state: string;
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** The theme as the app keeps it (the stored choice, applied before first paint by the theme script). */
async function chooseTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  if (!page.url().startsWith("http")) await page.goto("/api/config/status");
  await page.evaluate(([key, t]) => localStorage.setItem(key, t), [THEME_STORAGE_KEY, theme]);
}

/** Every serious or critical violation on the page as it is, with the contrast numbers axe measured. */
async function scan(page: Page, state: string): Promise<Finding[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      state,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      nodes: v.nodes.map((n) => {
        const data = n.any.find((c) => c.id === "color-contrast")?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | undefined;
        const contrast = data?.contrastRatio ? ` — ${data.contrastRatio}:1 (${data.fgColor} on ${data.bgColor}, needs ${data.expectedContrastRatio})` : "";
        return `${n.target.join(" ")}${contrast}\n        ${n.html.slice(0, 160)}`;
      }),
    }));
}

/**
 * Opens a page state (`open` navigates and waits until it is there) in both themes, and scans it at
 * both widths. Returns what axe found; the test fails on it at its end, so that one run lists all.
 */
async function scanState(page: Page, name: string, open: (page: Page) => Promise<void>, findings: Finding[], screenshot?: string): Promise<void> {
  for (const theme of THEMES) {
    await page.setViewportSize(WIDTHS[0]);
    await chooseTheme(page, theme);
    await open(page);
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.waitForTimeout(150);
      findings.push(...(await scan(page, `${name} @${size.width}px ${theme}`)));
      if (screenshot) await shot(page, `a11y-${screenshot}-${size.width}-${theme}`, true);
    }
  }
  await page.setViewportSize(WIDTHS[0]);
}

/** One line per rule and element, with the states it was found in (the same node recurs in many). */
function report(findings: Finding[]): string {
  const byNode = new Map<string, { impact: string; help: string; states: string[] }>();
  for (const f of findings) {
    for (const node of f.nodes) {
      const key = `${f.rule} ${node}`;
      const entry = byNode.get(key) ?? { impact: f.impact, help: f.help, states: [] };
      entry.states.push(f.state);
      byNode.set(key, entry);
    }
  }
  return [...byNode].map(([key, e]) => `[${e.impact}] ${key}
        (${e.help}) on ${e.states.join("; ")}`).join("\n");
}

function expectNone(findings: Finding[]): void {
  if (findings.length) console.log(`[a11y] ${findings.length} serious/critical violations:\n${report(findings)}`);
  expect(findings.map((f) => `${f.rule} (${f.nodes.length}) on ${f.state}`), report(findings)).toEqual([]);
}

async function signedOut(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: "reduce" });
  return page;
}

test.beforeEach(async ({ page }) => {
  // A pulsing dot changes its opacity mid-scan; without motion the colours axe measures are the real ones.
  await page.emulateMedia({ reducedMotion: "reduce" });
});

test("axe: sign-in and sign-up with an error", async ({ browser }) => {
  const page = await signedOut(browser);
  const findings: Finding[] = [];
  await scanState(page, "sign-in", async (p) => {
    await p.goto("/sign-in");
    await expect(p.getByTestId("sign-in-form")).toBeVisible();
  }, findings);
  await scanState(page, "sign-up with an error", async (p) => {
    await p.goto("/sign-up");
    await p.getByTestId("sign-up-email").fill("mismatch@quarry.test");
    await p.getByTestId("sign-up-password").fill("correct horse battery");
    await p.getByTestId("sign-up-confirm").fill("another horse battery");
    await p.getByTestId("sign-up-submit").click();
    await expect(p.getByTestId("sign-up-error")).toBeVisible();
  }, findings, "sign-up-error");
  await page.context().close();
  expectNone(findings);
});

test("axe: the new-research wizard's prompt step, and its questions, depth and breadth step with the estimate", async ({ page }) => {
  const findings: Finding[] = [];
  await scanState(page, "home: prompt step", async (p) => {
    await freshWizard(p);
    await expect(p.getByTestId("prompt-input")).toBeVisible();
  }, findings);
  await scanState(page, "home: questions, depth and breadth", async (p) => {
    await freshWizard(p);
    await p.getByTestId("prompt-input").fill("How do heat pumps perform in cold climates?");
    await p.getByTestId("num-questions").fill("2");
    await p.getByTestId("generate-questions").click();
    await expect(p.getByTestId("answer-1")).toBeVisible();
    await expect(p.getByTestId("depth")).toBeVisible();
  }, findings, "wizard-step-2");
  await page.evaluate(() => sessionStorage.clear());
  expectNone(findings);
});

test("axe: a running research, then cancelled; a completed research's tree, sources and report", async ({ page, request }) => {
  const findings: Finding[] = [];
  await llmControl(request, { latencyMs: 0 });
  const done = await startResearch(request, "Which insulation materials suit old brick houses?", 2, 2);
  await expect
    .poll(async () => ((await (await request.get(`/api/research/${done.id}`)).json()) as { status: string }).status, { timeout: 120_000 })
    .toBe("completed");

  // Slow enough to stay running through four scans, however loaded the machine (at 2.5 s a call the
  // tree could end before a slow browser showed it running).
  await llmControl(request, { latencyMs: 6000 });
  const running = await startResearch(request, "How do cities plan for heat waves?", 2, 3);
  await scanState(page, "running research: tree", async (p) => {
    await p.goto(`/research/${running.id}`);
    await expect(p.getByTestId("tree-node").first()).toBeVisible({ timeout: 60_000 });
    await expect(p.getByTestId("research-status")).toHaveAttribute("data-status", "running");
  }, findings, "running-tree");
  const c = await request.post(`/api/research/${running.id}/cancel`, { headers: sameOrigin() });
  expect(c.status(), await c.text()).toBe(200);
  await llmControl(request, { latencyMs: 0 });
  await scanState(page, "cancelled research: tree", async (p) => {
    await p.goto(`/research/${running.id}`);
    await expect(p.getByTestId("research-status")).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
    await expect(p.getByTestId("tree-node").first()).toBeVisible();
  }, findings);

  await scanState(page, "completed research: tree", async (p) => {
    await p.goto(`/research/${done.id}`);
    await expect(p.getByTestId("tree-node").first()).toBeVisible();
    // A selected query opens its details (the panel, or a sheet on a phone, is part of the page).
    await p.getByTestId("tree-node").first().click();
    await expect(p.getByTestId("query-detail")).toBeVisible();
  }, findings, "completed-tree");
  await scanState(page, "completed research: sources", async (p) => {
    await p.goto(`/research/${done.id}/sources`);
    await expect(p.getByTestId("sources-counts")).toBeVisible();
  }, findings, "completed-sources");
  await scanState(page, "completed research: report", async (p) => {
    await p.goto(`/research/${done.id}/report`);
    await expect(p.getByTestId("report")).toBeVisible();
  }, findings);
  expectNone(findings);
});

test("axe: a failed research", async ({ page, request }) => {
  const findings: Finding[] = [];
  const research_id = await startFailingResearch(request);
  await scanState(page, "failed research", async (p) => {
    await p.goto(`/research/${research_id}`);
    await expect(p.getByTestId("research-status")).toHaveAttribute("data-status", "failed", { timeout: 90_000 });
    await expect(p.getByTestId("research-error")).toBeVisible();
  }, findings);
  expectNone(findings);
});

test("axe: history, settings, a shared report, quick answer, Deep Research start and conversation", async ({ page, request, browser }) => {
  const findings: Finding[] = [];
  await llmControl(request, { latencyMs: 0 });
  // Settings with a row in each table; History with a few researches.
  const shared = await startResearch(request, "What makes a good community energy co-op?", 1, 1);
  await expect
    .poll(async () => ((await (await request.get(`/api/research/${shared.id}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe("completed");
  const share = await request.post(`/api/research/${shared.id}/shares`, { headers: sameOrigin() });
  expect(share.status(), await share.text()).toBe(201);
  const { path: sharePath } = (await share.json()) as { path: string };
  const token = await request.post("/api/tokens", { headers: sameOrigin(), data: { name: "a11y script" } });
  expect(token.status(), await token.text()).toBe(201);

  await scanState(page, "history", async (p) => {
    await p.goto("/history");
    await expect(p.getByTestId("history-row").first()).toBeVisible();
  }, findings, "history");
  await scanState(page, "settings", async (p) => {
    await p.goto("/settings");
    await expect(p.getByText("a11y script").first()).toBeVisible();
    await expect(p.locator("table")).toHaveCount(2);
  }, findings, "settings");

  // The shared report, as a signed-out visitor sees it.
  const visitor = await signedOut(browser);
  await scanState(visitor, "shared report (signed out)", async (p) => {
    await p.goto(sharePath);
    await expect(p.getByText(shared.prompt).first()).toBeVisible();
  }, findings);
  await visitor.context().close();

  await page.goto("/answer");
  await page.getByTestId("answer-question").fill("How much storage did grid batteries add in 2024?");
  await page.getByTestId("answer-submit").click();
  await expect(page.getByTestId("answer-result")).toBeVisible({ timeout: 60_000 });
  const answerUrl = page.url();
  await scanState(page, "quick answer", async (p) => {
    await p.goto(answerUrl);
    await expect(p.getByTestId("answer-result")).toBeVisible();
  }, findings);

  await scanState(page, "Deep Research start", async (p) => {
    await p.goto("/deep-research/new");
    await expect(p.getByLabel("Research question")).toBeVisible();
  }, findings);
  const res = await page.request.post("/api/deep-research/start", {
    headers: sameOrigin(),
    data: { message: "Which soils store the most carbon? #stop-at-9", researchMode: "steering" },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { conversationId } = (await res.json()) as { conversationId: string };
  await scanState(page, "Deep Research conversation", async (p) => {
    await p.goto(`/deep-research/${conversationId}`);
    await expect(p.getByTestId("dr-page")).toHaveAttribute("data-running", "false", { timeout: 120_000 });
  }, findings);
  expectNone(findings);
});

test("the query tree is a tree: one tab stop, arrow keys move, expand and collapse, Enter selects", async ({ page, request }) => {
  await llmControl(request, { latencyMs: 0 });
  const { id } = await startResearch(request, "How are wind turbine blades recycled?", 2, 2);
  await page.goto(`/research/${id}`);
  await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  const tree = page.getByRole("tree", { name: "Research queries" });
  // Breadth 2, depth 2: two queries, each with one follow-up.
  await expect(tree.getByRole("treeitem")).toHaveCount(4);
  const rows = page.getByTestId("tree-node");
  const first = rows.nth(0);
  // One tab stop: the first row.
  await expect(page.locator('[data-testid="tree-node"][tabindex="0"]')).toHaveCount(1);
  await first.focus();
  await expect(first).toHaveAttribute("aria-level", "1");
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(first).toHaveAttribute("aria-selected", "false");

  const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-query-id") ?? document.activeElement?.tagName);
  const idOf = async (i: number) => (await rows.nth(i).getAttribute("data-query-id"))!;
  const [root1, child1] = [await idOf(0), await idOf(1)];

  await page.keyboard.press("ArrowDown");
  expect(await focused()).toBe(child1);
  await expect(page.locator(`[data-testid="tree-node"][data-query-id="${child1}"]`)).toHaveAttribute("aria-level", "2");
  // Left on a leaf: to its parent. Left on an open parent: collapses it.
  await page.keyboard.press("ArrowLeft");
  expect(await focused()).toBe(root1);
  await page.keyboard.press("ArrowLeft");
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await expect(rows).toHaveCount(3);
  expect(await focused()).toBe(root1);
  // Right on a closed parent expands it; again, goes to its first child.
  await page.keyboard.press("ArrowRight");
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(rows).toHaveCount(4);
  await page.keyboard.press("ArrowRight");
  expect(await focused()).toBe(child1);
  // End and Home; Enter selects, and the tab stop follows.
  await page.keyboard.press("End");
  expect(await focused()).toBe(await idOf(3));
  await page.keyboard.press("Home");
  expect(await focused()).toBe(root1);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page.locator(`[data-testid="tree-node"][data-query-id="${child1}"]`)).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("query-detail")).toHaveAttribute("data-query-id", child1);
  await expect(page.locator('[data-testid="tree-node"][tabindex="0"]')).toHaveAttribute("data-query-id", child1);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press(" ");
  await expect(page.getByTestId("query-detail")).toHaveAttribute("data-query-id", await idOf(2));
  // Tab leaves the tree at once (one tab stop), Shift+Tab comes back to the row last focused.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="tree"]'))).toBe(false);
  await page.keyboard.press("Shift+Tab");
  expect(await focused()).toBe(await idOf(2));
  await shot(page, "a11y-tree-keyboard-1280-light");
});

test("a polite live region says the progress while a research runs, at most every 10 s, and that it completed", async ({ page, request }) => {
  // Slow enough that the run lasts a few announcement intervals.
  await llmControl(request, { latencyMs: 1200 });
  const { id } = await startResearch(request, "What limits the lifetime of solar panels?", 2, 2);
  await page.goto(`/research/${id}`);
  const region = page.getByTestId("research-announcer");
  await expect(region).toHaveAttribute("role", "status");
  await expect(region).toHaveAttribute("aria-live", "polite");
  // Each change of the region is stamped in the page, when it happens (polling from here stamped it
  // late by as much as the loaded machine delayed the poll). The text already there when the
  // recorder starts was said at an unknown time before: it is marked, and starts no interval.
  type Said = { at: number; text: string; before?: boolean };
  await page.evaluate(() => {
    const region = document.querySelector('[data-testid="research-announcer"]')!;
    const said: Said[] = [];
    (window as unknown as { __said: Said[] }).__said = said;
    const record = (before?: boolean) => {
      const text = (region.textContent ?? "").trim();
      if (text && text !== said.at(-1)?.text) said.push({ at: performance.now(), text, ...(before ? { before } : {}) });
    };
    record(true);
    new MutationObserver(() => record()).observe(region, { subtree: true, childList: true, characterData: true });
  });
  const readSaid = () => page.evaluate(() => (window as unknown as { __said: Said[] }).__said);
  await expect.poll(async () => (await readSaid()).at(-1)?.text ?? "", { timeout: 150_000, intervals: [500] }).toMatch(/completed/);
  const said = await readSaid();
  const t0 = said[0]?.at ?? 0;
  console.log(`[a11y] live region said:\n  ${said.map((s) => `+${((s.at - t0) / 1000).toFixed(1)} s ${s.before ? "(already there) " : ""}${s.text}`).join("\n  ")}`);
  const progress = said.filter((s) => /\d+ of \d+ quer(y|ies) done, \d+ pages? analysed|All \d+ quer(y|ies) done/.test(s.text));
  expect(progress.length, "progress was announced more than once during the run").toBeGreaterThan(1);
  expect(said.at(-1)?.text).toMatch(/^The research is completed: \d+ queries done, \d+ pages analysed\. The report is ready\.$/);
  // Batched: two progress sentences are never less than ~10 s apart.
  const timed = progress.filter((s) => !s.before);
  for (let i = 1; i < timed.length; i++) expect(timed[i].at - timed[i - 1].at).toBeGreaterThan(9_500);
});

test("focus after each step and error: the wizard's Continue, a failed sign-up, a failed sign-in", async ({ page, browser }) => {
  await freshWizard(page);
  await page.getByTestId("prompt-input").fill("How do heat pumps perform in cold climates?");
  await page.getByTestId("num-questions").fill("2");
  await page.getByTestId("generate-questions").click();
  await expect(page.getByTestId("answer-0")).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("answer-0");
  // Edit: back to the prompt, focused.
  await page.getByTestId("edit-prompt").click();
  await expect(page.getByTestId("prompt-input")).toBeFocused();
  await page.evaluate(() => sessionStorage.clear());

  const out = await signedOut(browser);
  await out.goto("/sign-up");
  await out.getByTestId("sign-up-email").fill(`focus-${Date.now().toString(36)}@quarry.test`);
  await out.getByTestId("sign-up-password").fill("correct horse battery");
  await out.getByTestId("sign-up-confirm").fill("another horse battery");
  await out.getByTestId("sign-up-submit").click();
  await expect(out.getByTestId("sign-up-error")).toHaveText("The passwords do not match.");
  const confirm = out.getByTestId("sign-up-confirm");
  await expect(confirm).toBeFocused();
  expect(await out.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("confirm");
  await expect(confirm).toHaveAttribute("aria-invalid", "true");
  await expect(confirm).toHaveAttribute("aria-describedby", "sign-up-error");
  await expect(out.getByTestId("sign-up-email")).not.toHaveAttribute("aria-invalid", "true");
  await expect(out.locator("#sign-up-error")).toHaveText("The passwords do not match.");

  await out.goto("/sign-in");
  await out.getByTestId("sign-in-email").fill("nobody@quarry.test");
  await out.getByTestId("sign-in-password").fill("a wrong password");
  await out.getByTestId("sign-in-submit").click();
  await expect(out.getByTestId("sign-in-error")).toHaveText("Wrong email or password.");
  const password = out.getByTestId("sign-in-password");
  await expect(password).toBeFocused();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveAttribute("aria-describedby", "sign-in-error");
  await out.context().close();
});

test("a keyboard-only walk: every tab stop shows its focus, and Tab goes on to the end of the page (no trap)", async ({ page, request }) => {
  await llmControl(request, { latencyMs: 0 });
  const { id } = await startResearch(request, "How do district heating networks price their heat?", 2, 2);
  for (const path of ["/", `/research/${id}`, "/history", "/settings"]) {
    await page.goto(path);
    if (path.startsWith("/research/")) await expect(page.getByTestId("research-status")).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
    await page.waitForLoadState("networkidle");
    const seen: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press("Tab");
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const s = getComputedStyle(el);
        // The app's focus ring is an outline (globals.css :focus-visible), never a transparent one.
        const visible = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2 && !/^rgba\(.*,\s*0\)$|transparent/.test(s.outlineColor);
        // Each element gets its own number, so that repeated controls (a "Share…" per row) are told apart.
        const w = window as unknown as { __walk?: { ids: WeakMap<Element, number>; next: number } };
        const walk = (w.__walk ??= { ids: new WeakMap(), next: 0 });
        if (!walk.ids.has(el)) walk.ids.set(el, walk.next++);
        const ids = walk.ids;
        const label = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}[${el.getAttribute("data-testid") ?? el.textContent?.trim().slice(0, 30) ?? ""}]`;
        return { key: `${label}@${ids.get(el)}`, visible };
      });
      if (!stop) break; // past the last stop: focus left the page
      expect(stop.visible, `${path}: focus is visible on ${stop.key}`).toBe(true);
      if (seen.at(-1) === stop.key) throw new Error(`${path}: Tab stayed on ${stop.key}`);
      if (seen.includes(stop.key)) break; // wrapped around
      seen.push(stop.key);
    }
    expect(seen.length, `${path}: tab stops`).toBeGreaterThan(3);
    console.log(`[a11y] keyboard walk ${path}: ${seen.length} tab stops, each with a visible focus ring`);
  }
});
