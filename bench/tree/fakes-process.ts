// The loopback fakes in their own process (test/fakes/serve.ts), so that their work is neither
// charged to the server nor in the way of the stream client; driven over their HTTP control API.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { LlmLogEntry, LogResponse, WebLogEntry } from "../../test/fakes";
import type { BoundLatencies } from "./bound";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface FakesProcess {
  env: Record<string, string>;
  resetLogs(): Promise<void>;
  llmLog(): Promise<LlmLogEntry[]>;
  webLog(): Promise<WebLogEntry[]>;
  stop(): Promise<void>;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

export async function startFakesProcess(latencies: BoundLatencies, { failingPageShare = 0 } = {}): Promise<FakesProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import", "tsx", path.join(ROOT, "test/fakes/serve.ts"),
      "--llm-latency", String(latencies.llmMs),
      "--search-latency", String(latencies.searchMs),
      "--web-latency", String(latencies.webMs),
      "--failing-page-share", String(failingPageShare),
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the fakes exited (${code}) before starting`)));
  });
  const urls = JSON.parse(line) as { llm: string; searxng: string; web: string };
  const origins = [urls.llm, urls.searxng, urls.web].map((u) => new URL(u).origin);
  return {
    env: {
      OPENAI_BASE_URL: urls.llm,
      OPENAI_API_KEY: "bench-key",
      RESEARCH_MODEL: "fake-model",
      SEARXNG_URL: urls.searxng,
      SCRAPE_ALLOW_PRIVATE: "1",
    },
    async resetLogs() {
      await Promise.all(origins.map((o) => fetch(`${o}/__reset`, { method: "POST" })));
    },
    llmLog: async () => (await getJson<LogResponse<LlmLogEntry>>(`${origins[0]}/__log`)).entries,
    webLog: async () => (await getJson<LogResponse<WebLogEntry>>(`${origins[2]}/__log`)).entries,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
