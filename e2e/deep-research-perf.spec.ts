// Render time of a large conversation: 20 iterations, 60 tasks, 25 discoveries, served as the
// stream's snapshot (the route is fulfilled by the test, so only the page's own work is timed).
// Target: under 200 ms from the data's arrival to an interactive page (DR_RENDER_BUDGET_MS).
// A bench, not a check of behaviour: timings depend on the machine's load, so it runs only with
// DR_PERF=1 (e.g. `DR_PERF=1 npx playwright test e2e/deep-research-perf.spec.ts --repeat-each 7`;
// read the median). Where the time goes: the dr:snapshot and dr:committed marks (React's render and
// commit), then style, layout and paint up to the next frame.
// Last measured (2 cores shared by 4 engineers, load average 4.7–6.1, 7 runs each): before the
// render-budget work 201–297 ms, median 258; after it 121–217 ms, median 177 (in the DOM: median
// 185 → 84 ms). Not reliably under 200 ms at that load, so it stays opt-in.
import { expect, test } from "./fixtures";
import { shot } from "./helpers";

const ID = "perf-fixture";
const iso = (m: number) => new Date(Date.UTC(2026, 0, 1, 10, m)).toISOString();

function fixture() {
  const plan = Array.from({ length: 60 }, (_, i) => {
    const level = Math.floor(i / 3) + 1;
    return { id: `lit-${level}-${(i % 3) + 1}`, level, type: i % 10 === 9 ? "ANALYSIS" : "LITERATURE", objective: `Evidence line ${level}.${(i % 3) + 1} on ocean heat uptake and its regional variation`, datasetFilenames: [], status: i % 10 === 9 ? "skipped" : "completed", output: i % 10 === 9 ? "Dataset analysis is not built yet." : "Summary", artifacts: [], error: null, childResearchId: `child-${i}`, startedAt: iso(i), endedAt: iso(i + 1) };
  });
  const discoveries = Array.from({ length: 25 }, (_, i) => ({
    id: `d${i + 1}`, claim: `Discovery ${i + 1}: the deep ocean absorbs a growing share of excess heat in region ${i}`, evidence: "Two independent reanalyses agree.", novelty: "New for this region",
    confidence: ["high", "medium", "low"][i % 3], status: i % 8 === 7 ? "retired" : i % 5 === 4 ? "revised" : "active", level: (i % 20) + 1,
    supportingTaskIds: [plan[i * 2].id], evidenceItems: [0, 1, 2].map((k) => ({ taskId: plan[i * 2].id, itemId: `item-${i}-${k}`, quote: `Quote ${k} supporting discovery ${i + 1}: measured warming of 0.${k}°C per decade below 700 m.`, url: `https://example.org/paper-${i}-${k}`, researchId: `child-${i}` })),
    history: [{ at: iso(i), level: 1, action: "new", reason: "First seen" }, ...(i % 5 === 4 ? [{ at: iso(i + 1), level: 2, action: "update", reason: "Sharper estimate", previousClaim: "Earlier claim" }] : [])],
  }));
  const messages = [{ id: "u1", role: "user", content: "How fast is the deep ocean warming?", status: "completed", iteration: 20, level: 1, phase: "done", researchMode: "fully-autonomous", replyToId: null, suggestedNextSteps: [], error: null, createdAt: iso(0), completedAt: iso(100) },
    ...Array.from({ length: 20 }, (_, i) => ({ id: `a${i + 1}`, role: "assistant", content: `**Iteration ${i + 1}.** The evidence so far points to steady uptake; see discoveries d${i + 1}.`, status: "completed", iteration: i + 1, level: i + 1, phase: "done", researchMode: "fully-autonomous", replyToId: "u1", suggestedNextSteps: [], error: null, createdAt: iso(i * 5), completedAt: iso(i * 5 + 4) }))];
  const state = { id: ID, objective: "How fast is the deep ocean warming?", currentObjective: "Regional rates", evolvingObjective: "Regional rates of deep ocean warming", conversationTitle: "Deep ocean warming", keyInsights: ["Uptake is accelerating", "Regions differ by a factor of three"], methodology: null,
    currentHypothesis: { hypothesis: "Deep ocean warming **accelerated** after 1990.", rationale: "Two reanalyses agree.", evidenceTaskIds: ["lit-1-1"], level: 20 }, suggestedNextSteps: [{ type: "LITERATURE", objective: "Compare Argo floats with reanalyses" }], currentLevel: 20, researchMode: "fully-autonomous", uploadedDatasets: [], createdAt: iso(0), updatedAt: iso(100) };
  return { conversationId: ID, state, messages, plan, discoveries, deepResearchRun: { isRunning: false, rootMessageId: "u1", mode: "fully-autonomous", startedAt: iso(0), lastResult: "completed", lastError: null, endedAt: iso(100) } };
}

const BUDGET_MS = Number(process.env.DR_RENDER_BUDGET_MS ?? 200);

test("a 20-iteration conversation renders within its budget after its data", async ({ page }) => {
  test.skip(process.env.DR_PERF !== "1", "a bench: set DR_PERF=1 on an idle machine");
  const body = [{ type: "start" }, { type: "data-snapshot", id: "snapshot", data: { seq: 1, conversation: fixture() } }, { type: "finish" }].map((c) => `data: ${JSON.stringify(c)}\n\n`).join("");
  await page.route(`**/api/deep-research/conversations/${ID}/stream`, (route) => route.fulfill({ status: 200, headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" }, body }));
  // Time from the stream's response reaching the page to the rendered page.
  await page.addInitScript(() => {
    const w = window as unknown as { __drDataAt?: number; __drShownAt?: number; __drPaintedAt?: number };
    const orig = window.fetch;
    window.fetch = async (...args) => {
      const res = await orig(...args);
      if (String(args[0]).includes("/stream")) w.__drDataAt = performance.now();
      return res;
    };
    // The moment everything is in the DOM, then the next frame painted after it.
    const mo = new MutationObserver(() => {
      // All 20 levels, the tasks of the two open ones (folded levels render theirs when opened), 25 discoveries.
      if (w.__drShownAt || document.querySelectorAll("[data-testid=dr-level]").length < 20 || document.querySelectorAll("[data-testid=dr-task]").length < 6 || document.querySelectorAll("[data-testid=dr-discovery]").length < 25) return;
      w.__drShownAt = performance.now();
      mo.disconnect();
      requestAnimationFrame(() => setTimeout(() => { w.__drPaintedAt = performance.now(); }, 0));
    });
    mo.observe(document, { childList: true, subtree: true });
  });
  await page.goto(`/deep-research/${ID}`);
  await expect(page.getByTestId("dr-level")).toHaveCount(20);
  await expect(page.getByTestId("dr-task")).toHaveCount(6);
  await expect(page.getByTestId("dr-discovery")).toHaveCount(25);
  await page.waitForFunction(() => Boolean((window as unknown as { __drPaintedAt?: number }).__drPaintedAt));
  const [dom, ms] = await page.evaluate(() => {
    const w = window as unknown as { __drDataAt?: number; __drShownAt?: number; __drPaintedAt?: number };
    return [w.__drShownAt! - w.__drDataAt!, w.__drPaintedAt! - w.__drDataAt!];
  });
  const marks = await page.evaluate(() => {
    const at = (n: string) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
    return { snapshotToCommit: at("dr:committed") - at("dr:snapshot"), responseToSnapshot: at("dr:snapshot") - (window as unknown as { __drDataAt: number }).__drDataAt };
  });
  console.log(`deep research fixture: ${JSON.stringify(marks)}`);
  console.log(`deep research fixture: in the DOM ${Math.round(dom)} ms, painted ${Math.round(ms)} ms after the stream's response`);
  test.info().annotations.push({ type: "render-ms", description: String(Math.round(ms)) });
  expect(ms).toBeLessThan(BUDGET_MS);
  console.log(`deep research fixture: rendered ${Math.round(ms)} ms after the data (the snapshot is not batched)`);
  // Interactive: a discovery opens to its quotes at once.
  const t0 = Date.now();
  await page.getByTestId("dr-discovery-toggle").first().click();
  await expect(page.getByTestId("dr-quote").first()).toBeVisible();
  console.log(`deep research fixture: evidence opened in ${Date.now() - t0} ms (incl. Playwright round trips)`);
  // A folded level renders its tasks when opened.
  await page.locator('[data-testid=dr-level][data-level="1"] > summary').click();
  await expect(page.getByTestId("dr-task")).toHaveCount(9);
  // The earlier timeline entries open on demand.
  await page.getByTestId("dr-show-earlier").click();
  await expect(page.getByTestId("dr-message")).toHaveCount(21);
  await shot(page, "dr-fixture-desktop", true);
});
