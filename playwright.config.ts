// Playwright drives the production build in Debian's Chromium against the loopback fakes.
// Run `npm run build` first; then `npx playwright test`.
import { defineConfig, devices } from "@playwright/test";

const APP_PORT = 3100;
// Point the specs at an already running app (and fakes, see e2e/helpers.ts) instead of starting them.
const external = process.env.E2E_BASE_URL;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/playwright",
  fullyParallel: false,
  workers: 1,
  // On CI a spec that fails is tried once more (npm test names every one that passed only then).
  retries: process.env.CI === "true" ? 1 : 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    baseURL: external ?? `http://127.0.0.1:${APP_PORT}`,
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 860 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    { name: "chromium", testIgnore: /auth\.setup\.ts/, dependencies: ["setup"], use: { storageState: "test-results/.auth/user.json" } },
  ],
  webServer: external ? undefined : [
    {
      command: "npx tsx test/fakes/serve.ts --llm-port 4101 --search-port 4102 --web-port 4103 --llm-latency 150 --search-latency 80 --web-latency 60",
      url: "http://127.0.0.1:4102/search?q=ping&format=json",
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "node e2e/serve-app.mjs",
      url: `http://127.0.0.1:${APP_PORT}/api/config/status`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(APP_PORT),
        OPENAI_BASE_URL: "http://127.0.0.1:4101/v1",
        OPENAI_API_KEY: "test",
        RESEARCH_MODEL: "fake-model",
        SEARXNG_URL: "http://127.0.0.1:4102",
        SCRAPE_ALLOW_PRIVATE: "1",
        SCRAPE_TIMEOUT_MS: "3000",
        // Every spec signs in as one user: the suite starts more researches in an hour than the
        // default per-user limit (30) allows, and some leave one running into the next spec; the same
        // for follow-up and clarification questions (60 an hour by default).
        RATE_LIMIT_STARTS_PER_HOUR: "1000",
        MAX_CONCURRENT_RUNS_PER_USER: "10",
        RATE_LIMIT_PLANNING_CALLS_PER_HOUR: "1000",
        MAX_CONCURRENT_PLANNING_CALLS_PER_USER: "10",
        // Several specs watch a research while it runs (live region, reload, cancel, pause banner):
        // paced like this, the fake world's researches take seconds; at the product's parallel
        // defaults (64 / 7) they end before the page under test has looked at them.
        LLM_CONCURRENCY: "8",
        ANALYZE_CONCURRENCY_PER_QUERY: "1",
      },
    },
  ],
});
