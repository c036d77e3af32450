// Shared steps for the specs: fake control, research creation through the API, screenshots.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const FAKE_LLM = process.env.E2E_FAKE_LLM ?? "http://127.0.0.1:4101";

export const E2E_USER = { email: "e2e@quarry.test", password: "e2e-password-123" };
/** The signed-in session the setup project saves (outside outputDir, which Playwright empties). */
export const AUTH_FILE = path.join(process.cwd(), "test-results", ".auth", "user.json");

/** Changes the fake LLM's behaviour for the next requests (latencyMs, failAll, …). */
export async function llmControl(request: APIRequestContext, patch: Record<string, unknown>): Promise<void> {
  const res = await request.post(`${FAKE_LLM}/__control`, { data: patch });
  expect(res.ok(), `fake LLM control ${JSON.stringify(patch)}: ${res.status()}`).toBeTruthy();
}

/** Back to the options the fake LLM was started with. */
export async function llmReset(request: APIRequestContext): Promise<void> {
  await request.post(`${FAKE_LLM}/__reset`);
}

/** State-changing API calls from a spec must look same-origin, as the app's own fetches do (CSRF check). */
export function sameOrigin(): { origin: string } {
  return { origin: new URL(test.info().project.use.baseURL ?? "http://127.0.0.1:3100").origin };
}

export interface Created {
  id: string;
  prompt: string;
}

/** A research created and started through the API (for specs that are not about the wizard). */
export async function startResearch(request: APIRequestContext, prompt: string, depth = 2, breadth = 2): Promise<Created> {
  const q = await request.post("/api/research/questions", { headers: sameOrigin(), data: { initial_prompt: prompt, num_questions: 1 } });
  expect(q.status(), await q.text()).toBe(200);
  const { research_id, followup_questions } = (await q.json()) as { research_id: string; followup_questions: string[] };
  const s = await request.post("/api/research/start", {
    headers: sameOrigin(),
    data: {
      research_id,
      initial_prompt: prompt,
      followup_questions,
      followup_answers: followup_questions.map(() => "Focus on the last five years."),
      depth,
      breadth,
    },
  });
  expect(s.status(), await s.text()).toBe(202);
  return { id: research_id, prompt };
}

const SHOTS = path.join(process.cwd(), "test-results", "screenshots");

export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

/**
 * The new-research wizard with no draft. The draft (sessionStorage) is cleared from a page without the
 * wizard: cleared on "/" itself, a wizard still hydrating writes it back before a reload (seen on a
 * loaded CI machine).
 */
export async function freshWizard(page: Page): Promise<void> {
  await page.goto("/history");
  await page.evaluate(() => sessionStorage.clear());
  await page.goto("/");
}

/**
 * Full-page screenshots at 1440 and 390 px, light and dark, and nothing wider than the phone's
 * screen; leaves the page at 1280 px, light. The theme is set at desktop width (on a phone the
 * toggle sits in the header's tight corner).
 */
export async function shots(page: Page, name: string): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await setTheme(page, theme);
    await shot(page, `${name}-desktop-${theme}`, true);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, `${name}-phone-${theme}`, true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name}: nothing wider than a 390 px screen`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await setTheme(page, "light");
}

export async function setTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.getByTestId(`theme-${theme}`).click();
  await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark).*$/);
  // Colours fade (transition-colors): a screenshot taken at once shows text half-way between themes.
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined))));
}

/** A research whose LLM refuses every call (401): it fails at once. The fake LLM stays failing until llmReset. */
export async function startFailingResearch(request: APIRequestContext): Promise<string> {
  const q = await request.post("/api/research/questions", { headers: sameOrigin(), data: { initial_prompt: "Why do some batteries swell?", num_questions: 1 } });
  const { research_id } = (await q.json()) as { research_id: string };
  await llmControl(request, { failAll: 401 });
  const s = await request.post("/api/research/start", {
    headers: sameOrigin(),
    data: { research_id, initial_prompt: "Why do some batteries swell?", followup_questions: ["Which kinds?"], followup_answers: ["Phones"], depth: 1, breadth: 1 },
  });
  expect(s.status()).toBe(202);
  return research_id;
}

/** Hovers the fake LLM's overstated sentence ("expected to double again") in the article `testId`: its
 * tooltip shows the "Partly supported" verdict and the source's quote. */
export async function hoverOverstatedClaim(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).evaluate((article) => {
    const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = (n as Text).data.indexOf("expected to double again");
      if (at === -1) continue;
      (n.parentElement as HTMLElement).scrollIntoView({ block: "center" });
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + 8);
      const r = range.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }
    return null;
  });
  expect(box).not.toBeNull();
  await page.mouse.move(box!.x, box!.y);
  const tooltip = page.getByTestId("claim-tooltip");
  await expect(tooltip).toContainText("Partly supported");
  await expect(tooltip).toContainText("Source says");
}

export interface MainThreadTask {
  /** Wall time, ms: what a user waits, and what a busy machine stretches (the thread waiting for a core). */
  wall: number;
  /**
   * The renderer main thread's CPU time over the task, ms (an upper bound, at most its wall time: read
   * from /proc/<pid>/task/<pid>/schedstat every 2 ms around the task, by e2e/cpu-sampler.cjs): the page's own work.
   */
  cpu: number;
}

/** Chromium's renderer processes on this machine (their main thread's id is the process id). */
function rendererPids(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("--type=renderer")) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * The page's long tasks (a PerformanceObserver's, over 50 ms of wall time) while `during` runs,
 * each with the CPU time its renderer's main thread used meanwhile. On a loaded 2-core CI machine
 * the app server, the fakes and the browser share the cores: a "longtask" of 316 ms failed a spec
 * there, and in a local trace an 80 ms task was 7 ms of the thread's work. Wall time there measures
 * the machine; the CPU time is the page's. (Chromium's own trace thread time, `tdur`, undercounts
 * here: a 250 ms busy loop read 26 ms.)
 */
export async function mainThreadTasks(page: Page, during: () => Promise<void>): Promise<MainThreadTask[]> {
  const pids = rendererPids();
  expect(pids.length, "Chromium's renderer processes are found in /proc").toBeGreaterThan(0);
  expect(fs.existsSync(`/proc/${pids[0]}/task/${pids[0]}/stat`), "the kernel reports a thread's CPU time").toBeTruthy();
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: "longtask" });
  });
  // The page's clock against this process's (Chromium's time origin can be off by 100 ms or more):
  // the reading with the shortest round trip.
  let offset = 0;
  let best = Infinity;
  for (let i = 0; i < 10; i++) {
    const sent = performance.timeOrigin + performance.now();
    const pageNow = await page.evaluate(() => performance.timeOrigin + performance.now());
    const back = performance.timeOrigin + performance.now();
    if (back - sent < best) [best, offset] = [back - sent, pageNow - (sent + back) / 2];
  }
  const sampler = spawn(process.execPath, [path.join(process.cwd(), "e2e", "cpu-sampler.cjs"), ...pids.map(String)], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  sampler.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise((resolve) => sampler.once("exit", resolve));
  await new Promise<void>((resolve) => sampler.stdout.once("data", () => resolve()));
  try {
    await during();
  } finally {
    sampler.kill("SIGTERM");
    await exited;
  }
  const { origin, tasks } = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    tasks: (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks,
  }));
  const samples = output
    .trim()
    .split("\n")
    .map((line) => line.split(" ").map(Number))
    .map(([at, cpu]) => ({ at, cpu }));
  // Each task's window on this process's clock, widened by the clock reading's uncertainty: the CPU
  // read is an upper bound (and sums every renderer's main thread; the others idle).
  const windows = tasks.map(({ start, duration }) => ({ wall: duration, from: origin + start - offset - best / 2, to: origin + start + duration - offset + best / 2 }));
  const gaps = samples.slice(1).map((s, i) => s.at - samples[i].at);
  console.log(`[main-thread] page clock within ±${(best / 2).toFixed(1)} ms; ${samples.length} CPU samples, longest gap ${Math.max(0, ...gaps).toFixed(0)} ms`);
  return windows
    .filter((w) => w.from >= samples[0].at)
    .map(({ wall, from, to }) => {
      const before = samples.findLast((s) => s.at <= from) ?? samples[0];
      const after = samples.find((s) => s.at >= to) ?? samples[samples.length - 1];
      // One thread: never more CPU than the task's own wall time.
      return { wall, cpu: Math.min(after.cpu - before.cpu, wall) };
    });
}
