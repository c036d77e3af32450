// The loopback fakes in their own process (test/fakes/serve.ts), so that their work is neither
// charged to the server nor in the way of the stream client; driven over their HTTP control API.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { FaultOptions, FaultStats, LlmLogEntry, LogResponse, WebLogEntry } from "../../test/fakes";
import type { BoundLatencies } from "./bound";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface FakesProcess {
  /** The fakes' process id (its CPU is read from /proc by the queue row). */
  pid?: number;
  /** Pages of the large fixture web the search results come from (`--web-pages`); 0: the 26 small pages. */
  webPages: number;
  /** Pages of the overlapping fixture web the search results come from (`--overlap-pages`; test/fakes/web-overlap.ts); 0: not that web. */
  overlapWeb: number;
  /** Points the product at the fake LLM directly. */
  env: Record<string, string>;
  /** The fault proxy's base URL, for OPENAI_BASE_URL in fault runs (started with `faults: true`). */
  faultsUrl?: string;
  resetLogs(): Promise<void>;
  llmLog(): Promise<LlmLogEntry[]>;
  webLog(): Promise<WebLogEntry[]>;
  /** The fault proxy in front of the LLM (started with `faults: true`; reset by resetLogs). */
  configureFaults(patch: Partial<FaultOptions>): Promise<void>;
  faultStats(): Promise<FaultStats>;
  stop(): Promise<void>;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

export async function startFakesProcess(latencies: BoundLatencies, { failingPageShare = 0, faults = false, webPages = 0, overlapWeb = 0 } = {}): Promise<FakesProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import", "tsx", path.join(ROOT, "test/fakes/serve.ts"),
      "--llm-latency", String(latencies.llmMs),
      "--search-latency", String(latencies.searchMs),
      "--web-latency", String(latencies.webMs),
      "--failing-page-share", String(failingPageShare),
      "--web-pages", String(webPages),
      "--overlap-web", String(overlapWeb),
      ...(faults ? ["--faults"] : []),
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the fakes exited (${code}) before starting`)));
  });
  const urls = JSON.parse(line) as { llm: string; searxng: string; web: string; faults?: string };
  const origins = [urls.llm, urls.searxng, urls.web, ...(urls.faults ? [urls.faults] : [])].map((u) => new URL(u).origin);
  const proxy = () => {
    if (!urls.faults) throw new Error("the fakes were started without the fault proxy");
    return new URL(urls.faults).origin;
  };
  return {
    pid: child.pid,
    webPages,
    overlapWeb,
    env: {
      OPENAI_BASE_URL: urls.llm,
      OPENAI_API_KEY: "bench-key",
      RESEARCH_MODEL: "fake-model",
      SEARXNG_URL: urls.searxng,
      SCRAPE_ALLOW_PRIVATE: "1",
    },
    faultsUrl: urls.faults,
    async resetLogs() {
      await Promise.all(origins.map((o) => fetch(`${o}/__reset`, { method: "POST" })));
    },
    llmLog: async () => (await getJson<LogResponse<LlmLogEntry>>(`${origins[0]}/__log`)).entries,
    webLog: async () => (await getJson<LogResponse<WebLogEntry>>(`${origins[2]}/__log`)).entries,
    async configureFaults(patch) {
      const res = await fetch(`${proxy()}/__control`, { method: "POST", body: JSON.stringify(patch) });
      if (!res.ok) throw new Error(`fault proxy /__control: HTTP ${res.status} ${await res.text()}`);
    },
    faultStats: () => getJson<FaultStats>(`${proxy()}/__stats`),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
